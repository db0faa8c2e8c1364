// Package importv2 translates a cluster config of openCenter-cli's v2
// format into opencenter's, by the field map of
// testdata/import/FIELDMAP.md: keys copied or renamed, sizes in GB made
// quantities, per-service secrets moved under secrets.services, the
// OpenStack credentials, the pod CIDR and the vCenter connection taken
// from where openCenter-cli keeps them.
//
// Where openCenter-cli's renderer puts a value of its own for a key the
// config leaves out (hostnames under the cluster's FQDN, buckets, the
// Gateway's name), the translation writes that value and lists it as
// derived, so that the cluster keeps what it runs.
//
// Nothing is dropped silently: every key of the input that the
// translation does not consume goes to the result's report, with its
// value, masked under secrets:. Only openCenter-cli's rendering keys that
// hold its own defaults (clidefaults.yaml) are left out, and counted. A
// value that openCenter-cli's init writes as a placeholder (CHANGEME) is
// not carried over but listed as something the user must still decide.
package importv2
