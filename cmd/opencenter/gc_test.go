package main

import "testing"

// TestGCPercent: the heap a render may grow to is at most the larger of
// Go's default (twice what it holds) and what it holds plus the headroom,
// so the tuning never raises a large fleet's peak memory; and the smaller
// the fleet, the less often it collects.
func TestGCPercent(t *testing.T) {
	prev := maxGCPercent + 1
	for _, n := range []int{0, 1, 5, 50, 250, 500, 1000, 1200, 5000, 100000} {
		p := gcPercent(n)
		held := baseHeap + n*perConfigHeap
		goal := held + held*p/100
		if limit := max(2*held, held+gcHeadroom); goal > limit || p < defaultGCPercent {
			t.Errorf("%d configs: GOGC %d lets the heap reach %d MiB, over %d MiB (or below Go's default)", n, p, goal>>20, limit>>20)
		}
		if p > prev {
			t.Errorf("%d configs: GOGC %d, above the %d of a smaller fleet", n, p, prev)
		}
		prev = p
		t.Logf("%d configs: GOGC %d", n, p)
	}
	if gcPercent(1) <= defaultGCPercent {
		t.Errorf("a single config gets GOGC %d: no headroom", gcPercent(1))
	}
}
