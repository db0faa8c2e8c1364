// Package descriptor is the overlay-unit descriptor format
// (descriptors/*.yaml, apiVersion opencenter.dev/v1alpha1, kind OverlayUnit)
// and its strict loading. descriptors/README.md documents it for authors.
package descriptor
