package provider

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// The password is the one value the provider can neither read back nor
// restore: these tests pin the two rules that keep it. A password set in the
// web interface survives every change Terraform makes, and a password the
// server accepts but stores as none (e.g. "0", unknown at plan time, so no
// validator saw it) leaves a warning, not an inconsistent result that taints
// the website.

// pwModel is a website model with the given privacy, password and
// password_wo_version (nil for null).
func pwModel(privacy string, password *string, woVersion *int64) websiteResourceModel {
	return websiteResourceModel{
		Privacy:       types.StringValue(privacy),
		Password:      types.StringPointerValue(password),
		PasswordWOVer: types.Int64PointerValue(woVersion),
	}
}

func TestKeepSentPassword(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		// got is the model after applyWebsite (the server's view), planned
		// the plan before it, sent the password sent (nil: none).
		got, planned websiteResourceModel
		sent         *string
		want         websiteResourceModel
		warn         bool
	}{
		{
			name:    "the server stores the password",
			got:     pwModel(privacyPassword, ptr("pw-one"), nil),
			planned: pwModel(privacyPassword, ptr("pw-one"), nil),
			sent:    ptr("pw-one"),
			want:    pwModel(privacyPassword, ptr("pw-one"), nil),
		},
		{
			name:    "the server stores password_wo",
			got:     pwModel(privacyPassword, nil, ptr[int64](2)),
			planned: pwModel(privacyPassword, nil, ptr[int64](2)),
			sent:    ptr("pw-one"),
			want:    pwModel(privacyPassword, nil, ptr[int64](2)),
		},
		{
			name:    "password \"0\" reads back as none",
			got:     pwModel(privacyPassword, nil, nil),
			planned: pwModel(privacyPassword, ptr("0"), nil),
			sent:    ptr("0"),
			want:    pwModel(privacyPassword, ptr("0"), nil),
			warn:    true,
		},
		{
			name:    "password_wo \"0\" reads back as none",
			got:     pwModel(privacyPassword, nil, nil),
			planned: pwModel(privacyPassword, nil, ptr[int64](1)),
			sent:    ptr("0"),
			want:    pwModel(privacyPassword, nil, ptr[int64](1)),
			warn:    true,
		},
		{
			name:    "leaving password privacy clears the password",
			got:     pwModel(privacyPublic, nil, nil),
			planned: pwModel(privacyPublic, nil, nil),
			sent:    ptr(""),
			want:    pwModel(privacyPublic, nil, nil),
		},
		{
			name:    "no password sent",
			got:     pwModel(privacyPassword, nil, nil),
			planned: pwModel(privacyPassword, nil, nil),
			want:    pwModel(privacyPassword, nil, nil),
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			got := c.got
			var diags diag.Diagnostics
			keepSentPassword(&got, c.planned, c.sent, &diags)
			if !got.Password.Equal(c.want.Password) || !got.PasswordWOVer.Equal(c.want.PasswordWOVer) {
				// The password's value is a test value, but say only whether
				// it is set, as messages about passwords do.
				t.Errorf("password set %t, password_wo_version %s; want password set %t, password_wo_version %s",
					!got.Password.IsNull(), got.PasswordWOVer, !c.want.Password.IsNull(), c.want.PasswordWOVer)
			}
			if diags.HasError() {
				t.Errorf("errors: %v", diags)
			}
			warned := false
			for _, d := range diags.Warnings() {
				warned = warned || d.Summary() == "Password Not Stored"
			}
			if warned != c.warn || diags.WarningsCount() > 1 {
				t.Errorf("warnings %v, want \"Password Not Stored\": %t", diags.Warnings(), c.warn)
			}
		})
	}
}

// input sends an empty password, which clears it, only when the website
// leaves "password" privacy and Terraform had set the password; a password
// set in the web interface of an imported website is never sent.
func TestInputClearsOnlyPasswordsTerraformSet(t *testing.T) {
	t.Parallel()
	imported := pwModel(privacyPassword, nil, nil) // the state of a website imported with a password
	cases := []struct {
		name   string
		plan   websiteResourceModel
		prior  *websiteResourceModel
		want   *string
		wantAs string // for messages
	}{
		{"imported, to public", pwModel(privacyPublic, nil, nil), &imported, nil, "not sent"},
		{"imported, to private", pwModel(privacyPrivate, nil, nil), &imported, nil, "not sent"},
		{"imported, stays password", pwModel(privacyPassword, nil, nil), &imported, nil, "not sent"},
		{"set by password, to public", pwModel(privacyPublic, nil, nil), ptr(pwModel(privacyPassword, ptr("pw"), nil)), ptr(""), "sent empty"},
		{"set by password_wo, to private", pwModel(privacyPrivate, nil, nil), ptr(pwModel(privacyPassword, nil, ptr[int64](1))), ptr(""), "sent empty"},
		{"created public", pwModel(privacyPublic, nil, nil), nil, nil, "not sent"},
		{"a new password", pwModel(privacyPassword, ptr("pw-two"), nil), &imported, ptr("pw-two"), "sent"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			c.plan.Domain = types.StringValue("tf-acc-pw.example.com")
			var diags diag.Diagnostics
			in := c.plan.input(context.Background(), c.prior, &diags)
			if diags.HasError() {
				t.Fatal(diags)
			}
			if (in.Password == nil) != (c.want == nil) || (in.Password != nil && *in.Password != *c.want) {
				t.Errorf("password sent: %s, want %s", describeSent(in.Password), c.wantAs)
			}
		})
	}
}

// describeSent says how input sends a password, without its value.
func describeSent(pw *string) string {
	switch {
	case pw == nil:
		return "not sent"
	case *pw == "":
		return "sent empty"
	}
	return "sent"
}
