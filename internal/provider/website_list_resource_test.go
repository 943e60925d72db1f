package provider

import (
	"context"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/analytics-tf/terraform-provider-analytics/internal/acctest"
	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
	"github.com/analytics-tf/terraform-provider-analytics/internal/wire"
)

func TestWebsiteListModel_matches(t *testing.T) {
	t.Parallel()
	yes, no := true, false
	site := func(privacy int, favorite *bool) *client.Website {
		return &client.Website{ID: 1, Domain: "a.example.com", Privacy: &privacy, Favorite: favorite}
	}
	cases := []struct {
		name    string
		cfg     websiteListModel
		w       *client.Website
		want    bool
		wantErr bool
	}{
		{"no filter", websiteListModel{}, site(2, nil), true, false},
		{"privacy matches", websiteListModel{Privacy: types.StringValue("password")}, site(2, nil), true, false},
		{"privacy differs", websiteListModel{Privacy: types.StringValue("public")}, site(1, nil), false, false},
		{"NULL privacy is public", websiteListModel{Privacy: types.StringValue("public")}, &client.Website{ID: 1}, true, false},
		{"unknown privacy value", websiteListModel{Privacy: types.StringValue("public")}, site(7, nil), false, false},
		{"favorite matches", websiteListModel{Favorite: types.BoolValue(true)}, site(0, &yes), true, false},
		{"favorite differs", websiteListModel{Favorite: types.BoolValue(true)}, site(0, &no), false, false},
		{"not a favorite", websiteListModel{Favorite: types.BoolValue(false)}, site(0, &no), true, false},
		{"server without favorites", websiteListModel{Favorite: types.BoolValue(false)}, site(0, nil), false, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			got, err := c.cfg.matches(c.w)
			if got != c.want || (err != nil) != c.wantErr {
				t.Errorf("matches = %v, %v; want %v, error %v", got, err, c.want, c.wantErr)
			}
		})
	}
}

// listRun is one call of the list resource's List against an emulator, as
// Terraform makes it: the results it streamed and the requests it cost.
type listRun struct {
	results  []list.ListResult
	requests emulator.Stats
}

// listWebsites calls List with the config attributes given (nil for none)
// and consumes the whole stream.
func listWebsites(t *testing.T, e *emulator.Emulator, baseURL string, cfg map[string]tftypes.Value, limit int64,
	includeResource bool,
) listRun {
	t.Helper()
	ctx := context.Background()
	c, err := client.New(baseURL, emulator.DefaultAPIKey, client.Options{})
	if err != nil {
		t.Fatal(err)
	}
	r := &websiteListResource{}
	var cresp resource.ConfigureResponse
	r.Configure(ctx, resource.ConfigureRequest{ProviderData: newProviderData(c)}, &cresp)
	var sresp list.ListResourceSchemaResponse
	r.ListResourceConfigSchema(ctx, list.ListResourceSchemaRequest{}, &sresp)
	var iresp resource.IdentitySchemaResponse
	(&websiteResource{}).IdentitySchema(ctx, resource.IdentitySchemaRequest{}, &iresp)

	typ := sresp.Schema.Type().TerraformType(ctx).(tftypes.Object) //nolint:forcetypeassert // a schema is an object
	vals := map[string]tftypes.Value{}
	for name, at := range typ.AttributeTypes {
		vals[name] = tftypes.NewValue(at, nil)
	}
	for name, v := range cfg {
		vals[name] = v
	}
	req := list.ListRequest{
		Config:                 tfsdk.Config{Schema: sresp.Schema, Raw: tftypes.NewValue(typ, vals)},
		IncludeResource:        includeResource,
		Limit:                  limit,
		ResourceSchema:         websiteResourceSchema(ctx),
		ResourceIdentitySchema: iresp.IdentitySchema,
	}
	e.ResetStats()
	var stream list.ListResultsStream
	r.List(ctx, req, &stream)
	var run listRun
	// The provider server sends every result the stream pushes while
	// Terraform reads them: the limit is the provider's to honour.
	for result := range stream.Results {
		run.results = append(run.results, result)
	}
	run.requests = e.Stats()
	return run
}

// diagnostics joins the diagnostics of every result.
func (r listRun) diagnostics() diag.Diagnostics {
	var diags diag.Diagnostics
	for _, res := range r.results {
		diags.Append(res.Diagnostics...)
	}
	return diags
}

func newListEmulator(t *testing.T, opts emulator.Options, n int) (*emulator.Emulator, string) {
	t.Helper()
	e, err := emulator.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(e)
	t.Cleanup(srv.Close)
	for i := range n {
		w := emulator.Website{Domain: fmt.Sprintf("list-%03d.example.com", i), Settings: wire.Settings{Privacy: ptr(i % 3), ExcludeParams: "keep"}}
		if i%3 == 2 {
			w.Password = "from-the-ui"
		}
		e.Seed(emulator.DefaultAPIKey, w)
	}
	return e, srv.URL
}

// TestWebsiteList_pages: the list costs one request per 100 websites, read
// twice when it needs more than page 1 (so that what it lists held at one
// moment), reads no page past page 1 when the limit does not need one, and
// streams the websites in the requested order.
func TestWebsiteList_pages(t *testing.T) {
	t.Parallel()
	e, url := newListEmulator(t, emulator.Options{}, 250)
	asc := map[string]tftypes.Value{"sort_by": tftypes.NewValue(tftypes.String, "id"), "sort": tftypes.NewValue(tftypes.String, "asc")}
	byDomain := map[string]tftypes.Value{"sort_by": tftypes.NewValue(tftypes.String, "domain"), "sort": tftypes.NewValue(tftypes.String, "desc")}
	cases := []struct {
		limit        int64
		cfg          map[string]tftypes.Value
		want, before int // results, list requests
	}{
		{limit: 1000, want: 250, before: 6},
		{limit: 250, want: 250, before: 6},
		{limit: 150, want: 150, before: 6},
		{limit: 100, want: 100, before: 1},
		{limit: 1, want: 1, before: 1},
		{limit: 0, want: 0, before: 0},
		// Oldest first: every page, read newest first and handed over in
		// reverse (client.AllWebsites), so a limit stops nothing early.
		{limit: 1000, cfg: asc, want: 250, before: 6},
		{limit: 1, cfg: asc, want: 1, before: 6},
		// By domain: every page twice, newest first, ordered here.
		{limit: 1000, cfg: byDomain, want: 250, before: 6},
		{limit: 1000, cfg: map[string]tftypes.Value{"search": tftypes.NewValue(tftypes.String, "list-1")}, want: 100, before: 1},
		// privacy is filtered by the provider: every page is read.
		{limit: 1000, cfg: map[string]tftypes.Value{"privacy": tftypes.NewValue(tftypes.String, "password")}, want: 83, before: 6},
		{limit: 10, cfg: map[string]tftypes.Value{"privacy": tftypes.NewValue(tftypes.String, "password")}, want: 10, before: 1},
	}
	for _, c := range cases {
		run := listWebsites(t, e, url, c.cfg, c.limit, false)
		if d := run.diagnostics(); d.HasError() {
			t.Fatalf("limit %d, %v: %v", c.limit, c.cfg, d)
		}
		if len(run.results) != c.want || run.requests.Total != c.before {
			t.Errorf("limit %d, %v: %d results for %d requests, want %d for %d: %v", c.limit, c.cfg, len(run.results),
				run.requests.Total, c.want, c.before, run.requests.ByRoute)
		}
		if c.cfg["sort"].Equal(tftypes.NewValue(tftypes.String, "asc")) && run.results[0].DisplayName != "list-000.example.com" {
			t.Errorf("ascending by id, the first result is %q", run.results[0].DisplayName)
		}
	}
}

// TestWebsiteList_includeResource: with include_resource, each result is
// the website as an import reads it: the API's values, and exclude_params,
// the password and the write-only version null (not managed), whatever the
// server holds.
func TestWebsiteList_includeResource(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e, url := newListEmulator(t, emulator.Options{}, 3)
	e.Seed(emulator.DefaultAPIKey, emulator.Website{Domain: "ips.example.com", Settings: wire.Settings{ExcludeIPs: "10.0.0.1\r\n10.0.0.0/8\r\n", Email: ptr(1), ExcludeBots: ptr(0)}})
	full := e.Seed(emulator.DefaultAPIKey, acctest.FullWebsite("full.example.com")) // every column set
	run := listWebsites(t, e, url, nil, 100, true)
	if d := run.diagnostics(); d.HasError() || len(run.results) != 5 {
		t.Fatalf("%d results: %v", len(run.results), d)
	}
	byDomain := map[string]websiteResourceModel{}
	for _, res := range run.results {
		var m websiteResourceModel
		if d := res.Resource.Get(ctx, &m); d.HasError() {
			t.Fatal(d)
		}
		var ident websiteIdentityModel
		if d := res.Identity.Get(ctx, &ident); d.HasError() {
			t.Fatal(d)
		}
		if res.DisplayName != m.Domain.ValueString() || ident.ID != m.ID {
			t.Errorf("display name %q and identity %v for the website %v (%v)", res.DisplayName, ident.ID, m.ID, m.Domain)
		}
		if !m.ExcludeParams.IsNull() || !m.Password.IsNull() || !m.PasswordWO.IsNull() || !m.PasswordWOVer.IsNull() ||
			!m.Timeouts.IsNull() {
			t.Errorf("%s: values the API never returns are set: %+v", m.Domain, m)
		}
		byDomain[m.Domain.ValueString()] = m
	}
	// As after an import's read, decided by the attribute table: an
	// attribute with a read (the API returns it, or the provider builds it)
	// has the value its read gives, as the data sources show it; skip_destroy
	// its default; every other one is null (not managed).
	fullResult := byDomain["full.example.com"]
	fullClient, err := client.New(url, emulator.DefaultAPIKey, client.Options{})
	if err != nil {
		t.Fatal(err)
	}
	fullRecord, err := fullClient.GetWebsite(ctx, full.ID)
	if err != nil {
		t.Fatal(err)
	}
	values, err := websiteDataValues(websiteRecord{Website: fullRecord, trackingCode: fullResult.TrackingCode})
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range websiteAttributes {
		if a.resource == nil {
			continue
		}
		got := fullResult.attribute(a.name)
		switch want, read := values[a.name]; {
		case read && want.IsNull():
			t.Errorf("%s: the data sources show it null for a website with every column set (acctest.FullWebsite): "+
				"check its read (internal/provider/website_attributes.go) and its column in internal/wire", a.name)
		case read && !got.Equal(want):
			t.Errorf("%s: the list result holds %v, an import reads %v: give its entry in websiteAttributes "+
				"(internal/provider/website_attributes.go) its apiField, so that applyWebsite "+
				"(internal/provider/website_model.go) reads it", a.name, got, want)
		case a.name == "skip_destroy":
			if !got.Equal(types.BoolValue(false)) {
				t.Errorf("skip_destroy is %v, want false, as after an import", got)
			}
		case !read && !got.IsNull():
			t.Errorf("%s: the API does not return it (no read), so an import leaves it null (not managed), "+
				"but the list result holds %v", a.name, got)
		}
	}
	ips := byDomain["ips.example.com"]
	want := types.SetValueMust(types.StringType, []attr.Value{types.StringValue("10.0.0.1"), types.StringValue("10.0.0.0/8")})
	if !ips.ExcludeIPs.Equal(want) || !ips.EmailReports.ValueBool() || ips.ExcludeBots.ValueBool() ||
		ips.Privacy.ValueString() != "public" || ips.CreatedAt.IsNull() {
		t.Errorf("ips.example.com: %+v", ips)
	}
	if p := byDomain["list-002.example.com"]; p.Privacy.ValueString() != "password" || !p.Password.IsNull() {
		t.Errorf("list-002.example.com: privacy %v, password null %v", p.Privacy, p.Password.IsNull())
	}
}

// TestWebsiteList_errors: what is not a list of the key user's websites is
// an error in the stream (or, for an empty account, a warning that names
// whose websites were listed), never an empty list that passes for "no
// websites".
func TestWebsiteList_errors(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name     string
		opts     emulator.Options
		websites int
		suffix   string
		cfg      map[string]tftypes.Value
		setup    func(e *emulator.Emulator)
		want     string
		warning  bool
	}{
		{name: "wrong path prefix", websites: 3, suffix: "/analytics", want: "Unexpected Answer at base_url"},
		{name: "maintenance", websites: 3, setup: func(e *emulator.Emulator) { e.SetMaintenance(true) }, want: "Analytics Server Unavailable: Could not list the websites. The API answered HTTP 503"},
		{name: "favorites unknown to the server", opts: emulator.Options{OmitFavorite: true}, websites: 3,
			cfg: map[string]tftypes.Value{"favorite": tftypes.NewValue(tftypes.Bool, true)}, want: "Favorites Not Supported"},
		{name: "no websites", want: `user #1 (User 1, user1@example.test) has no websites`, warning: true},
		{name: "none matches", websites: 3, cfg: map[string]tftypes.Value{"search": tftypes.NewValue(tftypes.String, "nomatch")},
			want: `has no website that matches the list's config`, warning: true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			e, url := newListEmulator(t, c.opts, c.websites)
			if c.setup != nil {
				c.setup(e)
			}
			run := listWebsites(t, e, url+c.suffix, c.cfg, 100, true)
			if len(run.results) != 1 {
				t.Fatalf("%d results, want one with the diagnostic: %+v", len(run.results), run.results)
			}
			d := run.results[0].Diagnostics
			if d.HasError() == c.warning || len(d) != 1 || !strings.Contains(d[0].Summary()+": "+d[0].Detail(), c.want) {
				t.Errorf("diagnostics %v, want one %s with %q", d, map[bool]string{true: "warning", false: "error"}[c.warning], c.want)
			}
			if r := run.results[0]; r.Identity != nil || r.DisplayName != "" {
				t.Errorf("the diagnostic carries a website: %+v", r)
			}
		})
	}
}
