// Package importv2 translates a cluster config of openCenter-cli's v2
// format into opencenter's, by the field map of
// testdata/import/FIELDMAP.md: keys copied or renamed, sizes in GB made
// quantities, per-service secrets moved under secrets.services, the
// OpenStack credentials and the pod CIDR taken from where openCenter-cli
// keeps them.
//
// Nothing is dropped silently: every key of the input that the
// translation does not consume goes to the result's report, with its
// value, masked under secrets:. A value that openCenter-cli's init writes
// as a placeholder (CHANGEME) is not carried over but listed as something
// the user must still decide.
package importv2
