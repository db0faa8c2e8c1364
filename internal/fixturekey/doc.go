// Package fixturekey points the age key lookup at the five-cluster fixture's
// TEST-ONLY key (testdata/keys), for tests: the fixture's configs keep their
// secrets: SOPS-encrypted for it, as a real repository would.
package fixturekey
