package core

import "testing"

func TestCRC16KermitCheckValue(t *testing.T) {
	// The layout's own example and the catalogue's check value.
	if got := CRC16Kermit([]byte("123456789")); got != 0x2189 {
		t.Fatalf("CRC16Kermit(123456789) = %#04x, want 0x2189", got)
	}
	if got := crcField([]byte("123456789")); got != "2189" {
		t.Fatalf("crcField = %q, want 2189", got)
	}
	// Independent vectors (computed with the catalogue's parameters):
	// empty input keeps the initial value; one byte 'A'.
	for in, want := range map[string]uint16{"": 0x0000, "A": 0x538d} {
		if got := CRC16Kermit([]byte(in)); got != want {
			t.Errorf("CRC16Kermit(%q) = %#04x, want %#04x", in, got, want)
		}
	}
}
