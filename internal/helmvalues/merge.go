package helmvalues

import "maps"

// Merge returns over laid on base: a key of both whose values are maps is
// merged key by key, any other value of over replaces base's (a list
// whole, a null too). Neither argument is changed; maps of base that over
// does not touch are shared with the result.
func Merge(base, over map[string]any) map[string]any {
	out := make(map[string]any, len(base)+len(over))
	maps.Copy(out, base)
	for k, v := range over {
		if bm, ok := out[k].(map[string]any); ok {
			if om, ok := v.(map[string]any); ok {
				out[k] = Merge(bm, om)
				continue
			}
		}
		out[k] = v
	}
	return out
}
