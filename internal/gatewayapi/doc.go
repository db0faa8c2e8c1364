// Package gatewayapi holds the Gateway API's rules that both the config's
// validation and verify's simulation apply, so that the two read them
// alike: today, how a listener's hostname matches a route's.
package gatewayapi
