package core

import "fmt"

// CRC16Kermit is CRC-16/KERMIT (also called CRC-16/CCITT-TRUE), the code
// the AFD layout 003 asks for on records of types 1 to 5 of a REP-A or
// REP-P: polynomial 0x1021 reflected (0x8408), initial value 0, input and
// output reflected, no final XOR. Its check value, over "123456789", is
// 0x2189. A bitwise loop is enough for records of a few hundred bytes.
func CRC16Kermit(b []byte) uint16 {
	var crc uint16
	for _, c := range b {
		crc ^= uint16(c)
		for range 8 {
			if crc&1 != 0 {
				crc = crc>>1 ^ 0x8408
			} else {
				crc >>= 1
			}
		}
	}
	return crc
}

// crcField is the CRC as the record's last field writes it: four
// hexadecimal digits, most significant first ("2189"), upper case.
func crcField(latin1 []byte) string { return fmt.Sprintf("%04X", CRC16Kermit(latin1)) }
