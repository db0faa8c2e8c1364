package main

import (
	"os"
	"runtime/debug"
)

// Memory a render may use beyond what it must hold, and what one loaded
// config holds (28 KB measured for the 25-service fixture cluster, plus the
// plans in flight, a few MB in all).
const (
	gcHeadroom       = 40 << 20
	perConfigHeap    = 32 << 10
	baseHeap         = 8 << 20
	maxGCPercent     = 400
	defaultGCPercent = 100
)

// tuneGC sets the collector's target for a render of n configs: a fixed
// headroom over the memory the render holds rather than Go's default of
// as much again. A small fleet then collects a few times less often (the
// collector is about a sixth of a render's CPU); from about a thousand
// configs, where the held memory reaches the headroom, it is Go's default,
// so peak memory never grows past what the default gives. GOGC in the
// environment wins.
func tuneGC(n int) {
	if _, set := os.LookupEnv("GOGC"); set {
		return
	}
	debug.SetGCPercent(gcPercent(n))
}

// gcPercent is the GOGC that gives n configs the headroom.
func gcPercent(n int) int {
	// In int64: the headroom in percent overflows a 32-bit int.
	held := baseHeap + int64(n)*perConfigHeap
	return int(min(maxGCPercent, max(defaultGCPercent, gcHeadroom*100/held)))
}
