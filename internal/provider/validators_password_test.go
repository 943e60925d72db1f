package provider

import (
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/path"
)

// The server's "required" rule trims a password with PHP's trim(), which
// also takes NUL: a password of NUL and white space is missing to it (a 422
// at apply with privacy "password"), so the plan refuses it as blank.
func TestPasswordValidator_blankAsTheServerTrims(t *testing.T) {
	t.Parallel()
	at := path.Root("password")
	for _, pw := range []string{"\x00", "\x00\x0b \x00", " \t\n\r"} {
		diags := validateString(passwordValidator(), at, pw)
		if !diags.HasError() || !strings.Contains(diags.Errors()[0].Detail(), "empty or only white space") {
			t.Errorf("a password of %d NUL or white space characters: %v, want it refused as blank", len(pw), diags)
		}
	}
}
