package quiosque

import (
	"encoding/hex"
	"strconv"
)

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

func itoaBytes(b []byte) string { return hex.EncodeToString(b) }
