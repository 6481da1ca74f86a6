package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/ponto/ponto/pkg/password"
)

// hashPasswordCommand is `auth hash-password`: it reads a password from
// standard input (never the command line, which shells keep in their
// history and ps shows) and prints its bcrypt hash, the form AUTH_ADMINS
// takes (email:hash). It needs no configuration.
const hashPasswordCommand = "hash-password"

// hashPassword reads the first line of in as the password, checks it as
// auth checks every password, and writes its hash to out.
func hashPassword(in io.Reader, out io.Writer) error {
	line, err := bufio.NewReader(io.LimitReader(in, 1024)).ReadString('\n')
	if err != nil && !errors.Is(err, io.EOF) {
		return err
	}
	p := strings.TrimRight(line, "\r\n")
	if p == "" {
		return errors.New("hash-password: give the password on standard input, e.g. `read -rs p; printf '%s\\n' \"$p\" | auth hash-password`")
	}
	if err := password.CheckStrength(p); err != nil {
		return fmt.Errorf("hash-password: %w", err)
	}
	h, err := password.Hash(p)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintln(out, h)
	return err
}
