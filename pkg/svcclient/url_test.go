package svcclient_test

import (
	"testing"

	"github.com/ponto/ponto/pkg/svcclient"
)

func TestURLValidate(t *testing.T) {
	for _, good := range []svcclient.URL{"http://127.0.0.1:9083", "https://employee.ponto.svc:9090/base"} {
		if err := good.Validate(); err != nil {
			t.Errorf("%s refused: %v", good, err)
		}
	}
	for _, bad := range []svcclient.URL{"", "employee:9090", "127.0.0.1:9083", "ftp://host", "http://", "http://a b"} {
		if err := bad.Validate(); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}
