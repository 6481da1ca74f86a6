package stack

import (
	"fmt"

	"github.com/ponto/ponto/pkg/mailtest"
)

// startMailSink serves SMTP on loopback for timekeeping's reminders
// (LEMBRETES_SMTP_ADDR) and prints each message it receives under the
// "mail" label, as a developer's mailbox would show it.
func startMailSink(out *output) (*mailtest.Server, error) {
	return mailtest.Start(mailtest.Config{}, func(m mailtest.Message) error {
		d, err := mailtest.Decode(m.Data)
		if err != nil {
			return err
		}
		out.printf("mail", "%s", fmt.Sprintf("para %s: %s\n%s", d.To, d.Subject, d.Body))
		return nil
	})
}
