package emulator

import (
	"fmt"
	"net/http"
)

// routeAccount is GET /api/v1/account (newer builds), which describes the
// API key's user and plan.
const routeAccount = "/api/v1/account"

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
	e.users[u.Key] = u
}

// UserID returns the id of the user whose API key is key (0 if none).
func (e *Emulator) UserID(key string) int64 {
	u, _ := e.user(key)
	return u.ID
}

// accountPageviews is the pageviews feature of the plan GET /account
// shows, as on a fresh installation's Default plan.
const accountPageviews = 1000

// account is GET /account: the user, with the plan's features. websites is
// the user's website limit, -1 when unlimited; a user without API access
// never gets here (403).
func (e *Emulator) account(req *request) *Response {
	if e.opts.NoAccountEndpoint {
		return jsonResponse(http.StatusNotFound, notFoundBody)
	}
	u := req.user
	websites := e.websiteLimit(u)
	if websites == 0 {
		websites = -1
	}
	plan := object{
		{"id", 1}, {"name", "Default"},
		{"features", object{
			{"pageviews", accountPageviews}, {"websites", websites}, {"email_reports", 1}, {"data_export", 1}, {"api", 1},
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
