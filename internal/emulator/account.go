package emulator

import (
	"fmt"
	"net/http"
	"sort"
)

// routeAccount is GET /api/v1/account (newer builds), which describes the
// API key's user and plan.
const routeAccount = "/api/v1/account"

// Unlimited is the value of a numeric plan feature without a limit, as the
// application writes it.
const Unlimited = -1

// Plan is a plan of the installation, with the features GET /account shows.
// The application refuses a website over Websites with a 422 on domain
// ("You created too many websites.") and every API call of a plan without
// API with a 403; it stores a website's e-mail reports setting whatever
// EmailReports says (and sends no report without it).
type Plan struct {
	ID   int64
	Name string
	// Websites and Pageviews are the number of websites a user may hold and
	// of pageviews recorded per month; Unlimited (-1) means no limit.
	Websites  int
	Pageviews int
	// API, EmailReports and DataExport are the plan's switches (1 or 0 in
	// the answer).
	API          bool
	EmailReports bool
	DataExport   bool
}

// The plans of the users of a real installation of a hosted brand, by the
// name PlanNamed and the analytics-emulator command's -plan flag know them.
var namedPlans = map[string]Plan{
	"unlimited": {ID: 1, Name: "Unlimited", Websites: Unlimited, Pageviews: Unlimited,
		API: true, EmailReports: true, DataExport: true},
	"no-api": {ID: 2, Name: "Free", Websites: 1, Pageviews: 1000},
	"three-websites": {ID: 3, Name: "Starter", Websites: 3, Pageviews: 10000,
		API: true, EmailReports: true, DataExport: true},
	"no-email-reports": {ID: 4, Name: "Basic", Websites: 10, Pageviews: 100000,
		API: true, DataExport: true},
}

// PlanNamed returns the plan of a real installation's users called name:
// "unlimited" (no limit, every feature), "no-api" (no API access: every
// call is refused with 403), "three-websites" (three websites, every
// feature) or "no-email-reports" (ten websites, API access, no e-mail
// reports). ok is false for any other name.
func PlanNamed(name string) (p Plan, ok bool) {
	p, ok = namedPlans[name]
	return p, ok
}

// PlanNames are the names PlanNamed knows, sorted.
func PlanNames() []string {
	names := make([]string, 0, len(namedPlans))
	for n := range namedPlans {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// defaultPlanPageviews is the pageviews feature of the Default plan of a
// fresh installation.
const defaultPlanPageviews = 1000

// planOf returns u's plan: User.Plan, or the Default plan of a fresh
// installation shaped by the user's NoAPIAccess and WebsiteLimit and the
// installation's DefaultWebsiteLimit.
func (e *Emulator) planOf(u User) Plan {
	if u.Plan != nil {
		return *u.Plan
	}
	websites := Unlimited
	switch {
	case u.WebsiteLimit > 0:
		websites = u.WebsiteLimit
	case u.WebsiteLimit == 0 && e.opts.DefaultWebsiteLimit > 0:
		websites = e.opts.DefaultWebsiteLimit
	}
	return Plan{ID: 1, Name: "Default", Websites: websites, Pageviews: defaultPlanPageviews,
		API: !u.NoAPIAccess, EmailReports: true, DataExport: true}
}

// websiteLimitReached tells whether u, holding owned websites, may create
// no more: only Unlimited (-1) has no limit, and a plan of 0 websites
// allows none, as the application checks it.
func (e *Emulator) websiteLimitReached(u User, owned int) bool {
	limit := e.planOf(u).Websites
	return limit != Unlimited && owned >= limit
}

// addUserLocked adds or replaces u, assigning its id, name and e-mail
// address when not set. Callers hold e.mu (or own e).
func (e *Emulator) addUserLocked(u User) {
	if old, ok := e.users[u.Key]; ok && u.ID == 0 {
		u.ID = old.ID
	}
	if u.ID == 0 {
		e.lastUserID++
		u.ID = e.lastUserID
	}
	e.lastUserID = max(e.lastUserID, u.ID)
	if u.Name == "" {
		u.Name = fmt.Sprintf("User %d", u.ID)
	}
	if u.Email == "" {
		u.Email = fmt.Sprintf("user%d@example.test", u.ID)
	}
	if u.Plan != nil {
		p := *u.Plan // the caller's plan is not shared
		u.Plan = &p
	}
	e.users[u.Key] = u
}

// UserID returns the id of the user whose API key is key (0 if none).
func (e *Emulator) UserID(key string) int64 {
	u, _ := e.user(key)
	return u.ID
}

// phpBool is a plan switch as the application writes it: 1 or 0.
func phpBool(b bool) int {
	if b {
		return 1
	}
	return 0
}

// account is GET /account: the user, with its plan's features (a user
// without API access never gets here: 403).
func (e *Emulator) account(req *request) *Response {
	if e.opts.NoAccountEndpoint {
		return jsonResponse(http.StatusNotFound, notFoundBody)
	}
	u := req.user
	p := e.planOf(u)
	plan := object{
		{"id", p.ID}, {"name", p.Name},
		{"features", object{
			{"pageviews", p.Pageviews}, {"websites", p.Websites}, {"email_reports", phpBool(p.EmailReports)},
			{"data_export", phpBool(p.DataExport)}, {"api", phpBool(p.API)},
		}},
	}
	return dataResponse(http.StatusOK, object{
		{"id", u.ID},
		{"name", u.Name},
		{"email", u.Email},
		{"avatar_url", fmt.Sprintf("https://example.test/avatar/%d.png", u.ID)},
		{"locale", "en"},
		{"timezone", "UTC"},
		{"plan", plan},
		{"created_at", "2024-01-01T00:00:00.000000Z"},
	})
}
