//go:build race

package render

// raceEnabled: the race detector makes sync.Pool drop items at random, so
// allocation counts are not the program's.
const raceEnabled = true
