// Package repolock makes renders of one GitOps repository take turns: an
// advisory lock (flock) on a lock file outside the paths opencenter owns and
// outside anything git tracks. Writers hold it exclusively, --check and
// --diff share it. The kernel releases it when a process dies, so a crash
// never leaves a stale lock.
package repolock
