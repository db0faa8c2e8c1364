package sops

import "strings"

// bech32Charset maps Bech32's 5-bit values to characters.
const bech32Charset = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"

// bech32Bytes returns the data of s, a Bech32 string (BIP 173, the
// encoding of age keys) whose human-readable part is hrp, in either case
// but not both; ok is false for anything else, a bad checksum included.
// age keeps its decoder internal; its parsers check a key first, and this
// takes the bytes.
func bech32Bytes(s, hrp string) (data []byte, ok bool) {
	if strings.ToLower(s) != s && strings.ToUpper(s) != s {
		return nil, false
	}
	s = strings.ToLower(s)
	sep := strings.LastIndexByte(s, '1')
	if sep < 1 || len(s)-sep-1 < 6 || s[:sep] != strings.ToLower(hrp) {
		return nil, false
	}
	chk := uint32(1)
	for i := range sep {
		chk = bech32Step(chk, s[i]>>5)
	}
	chk = bech32Step(chk, 0)
	for i := range sep {
		chk = bech32Step(chk, s[i]&31)
	}
	var acc uint32
	bits := 0
	payload := len(s) - 6
	for i := sep + 1; i < len(s); i++ {
		v := strings.IndexByte(bech32Charset, s[i])
		if v < 0 {
			return nil, false
		}
		chk = bech32Step(chk, byte(v))
		if i >= payload {
			continue // the checksum's characters
		}
		acc = acc<<5 | uint32(v)
		bits += 5
		if bits >= 8 {
			bits -= 8
			data = append(data, byte(acc>>bits))
		}
	}
	// At most four padding bits, all zero.
	if chk != 1 || bits >= 5 || acc&(1<<bits-1) != 0 {
		return nil, false
	}
	return data, true
}

// bech32Step adds one 5-bit value to the Bech32 checksum.
func bech32Step(chk uint32, v byte) uint32 {
	gen := [5]uint32{0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3}
	top := chk >> 25
	chk = (chk&0x1ffffff)<<5 ^ uint32(v)
	for i, g := range gen {
		if top>>i&1 == 1 {
			chk ^= g
		}
	}
	return chk
}
