package mailbox

import (
	"context"
	"net/smtp"
	"testing"
	"time"
)

func TestCodeArrivesByAddress(t *testing.T) {
	m, err := Start()
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	// Quoted-printable, as go-mail sends a pt-BR body.
	msg := "From: ponto <nao-responda@ponto.test>\r\nTo: Ana@Empresa.test\r\nSubject: codigo\r\n" +
		"Content-Type: text/plain; charset=UTF-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n" +
		"Ol=C3=A1, Ana!\r\n\r\nSeu c=C3=B3digo de acesso ao ponto =C3=A9:\r\n\r\n    042917\r\n\r\nEle vale por 10 minutos.\r\n"
	if err := smtp.SendMail(m.Addr(), nil, "nao-responda@ponto.test", []string{"Ana@Empresa.test"}, []byte(msg)); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	code, err := m.Code(ctx, "ana@empresa.test")
	if err != nil || code != "042917" {
		t.Fatalf("code = %q, %v", code, err)
	}
	// Nothing else is waiting for that address.
	ctx2, cancel2 := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel2()
	if c, err := m.Code(ctx2, "ana@empresa.test"); err == nil {
		t.Fatalf("a second code %q appeared", c)
	}
}

func TestMessageWithoutCodeIsRefused(t *testing.T) {
	m, err := Start()
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	msg := "From: a@b.test\r\nTo: c@d.test\r\nSubject: x\r\n\r\nsem código aqui\r\n"
	if err := smtp.SendMail(m.Addr(), nil, "a@b.test", []string{"c@d.test"}, []byte(msg)); err == nil {
		t.Fatal("a message without a code was accepted")
	}
}
