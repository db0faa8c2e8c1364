package config

import (
	"net/netip"
	"testing"
)

// TestMetalLBPooled: an address is in a pool when a CIDR holds it or it
// lies between a range's two addresses, both included, as MetalLB's
// allocator reads pools.
func TestMetalLBPooled(t *testing.T) {
	m := &MetalLB{IPPools: []MetalLBIPPool{{Name: "a", Addresses: []string{"10.0.0.10-10.0.0.20", " 10.0.2.1 - 10.0.2.1"}}, {Name: "b", Addresses: []string{"10.0.1.0/28", "fd00::/64"}}}}
	for ip, want := range map[string]bool{
		"10.0.0.10": true, "10.0.0.20": true, "10.0.0.15": true, "10.0.0.9": false, "10.0.0.21": false,
		"10.0.1.0": true, "10.0.1.15": true, "10.0.1.16": false, "10.0.2.1": true, "10.0.2.2": false,
	} {
		if got := m.pooled(netip.MustParseAddr(ip)); got != want {
			t.Errorf("%s: pooled %v, want %v", ip, got, want)
		}
	}
}
