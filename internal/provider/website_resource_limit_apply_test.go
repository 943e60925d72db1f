package provider

import (
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/analytics-tf/terraform-provider-analytics/internal/acctest"
)

// Terraform plans each create again while it applies, and the provider
// instance of the apply counts the websites held once: a delete the apply
// makes after that count leaves the user a website fewer. Three held of
// three, b and c renamed (each deleted, then created): c's delete is held
// back until b's new website has counted the websites (a, c), so c's new
// website is planned again with the count of before c's delete. The apply
// fits and must not warn that it would pass the limit. (Without the hold,
// the same happens whenever a delete is slower than the count.)
func TestAccWebsite_limitWarningAtApplyCountsDeletes(t *testing.T) {
	acctest.NeedsEmulator(t, "holds a DELETE in front of the emulator until the apply counts the websites")
	var (
		holdID  atomic.Int64 // the id whose DELETE waits
		counted = make(chan struct{})
		once    sync.Once
	)
	hold := func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			id := holdID.Load()
			if id != 0 && r.Method == http.MethodDelete && r.URL.Path == fmt.Sprintf("/api/v1/websites/%d", id) {
				// Not for ever: when a list fetch of the bulk reader began
				// after this DELETE, it waits for this process's writes
				// (bulk_write.go), and b's delete, then b's create and its
				// count, wait behind that fetch: the count cannot come
				// while this DELETE is held. It then goes on after a few
				// seconds, well within one request's time limit.
				select {
				case <-counted:
				case <-time.After(5 * time.Second):
				}
			}
			next.ServeHTTP(w, r)
			if id != 0 && r.Method == http.MethodGet && r.URL.Path == "/api/v1/websites" && r.URL.Query().Get("per_page") == "10" {
				once.Do(func() { close(counted) })
			}
		})
	}
	env := acctest.New(t, acctest.Emulator(planUsers(t, keyThreePlan)), acctest.Wrap(hold))
	w := acctest.NewWorkdir(t)
	config := func(suffix string) string {
		return env.ProviderBlock() + fmt.Sprintf(`
resource "analytics_website" "a" {
  domain = "a.example.com"
}
resource "analytics_website" "b" {
  domain = "b%[1]s.example.com"
}
resource "analytics_website" "c" {
  domain = "c%[1]s.example.com"
}
`, suffix)
	}
	w.Write("main.tf", config(""))
	w.MustRun(0, "apply", "-auto-approve")
	w.Write("main.tf", config("2"))
	w.MustRun(0, "plan", "-out=rename.tfplan")
	c, ok := env.WebsiteByDomain("c.example.com")
	if !ok {
		t.Fatal("no website c.example.com")
	}
	holdID.Store(c.ID)
	out := w.MustRun(0, "apply", "-no-color", "rename.tfplan")
	select {
	case <-counted:
	default:
		t.Fatalf("the apply never counted the websites; the test did not hold c's delete:\n%s", out)
	}
	if strings.Contains(out, "Website Limit Would Be Exceeded") {
		t.Errorf("an apply that fits warns that it passes the limit:\n%s", out)
	}
	if n := len(env.Websites()); n != 3 {
		t.Errorf("%d websites after the apply, want 3", n)
	}
}
