// Package diag holds the one diagnostic shape every opencenter error takes:
// `file:line:col: yaml.path: message`, collected, sorted and reported at once.
package diag
