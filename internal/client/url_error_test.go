package client_test

import (
	"net"
	"strings"
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
)

// A request that never reaches the server (here: a closed port) fails with
// net/http's error, which quotes the request's URL. The message names the
// endpoint but never its query (a search, a page: what the user asked
// for, which house rules keep out of messages) nor a user-information part.
func TestNetworkErrorNamesURLWithoutQuery(t *testing.T) {
	t.Parallel()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	_ = l.Close()
	c, err := client.New("http://"+addr+"/api/v1", "key-for-test", client.Options{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.ListWebsites(ctx(t), client.ListOptions{Search: "secret-search-term.example"})
	if err == nil {
		t.Fatal("a list from a closed port succeeded")
	}
	msg := err.Error()
	for _, bad := range []string{"secret-search-term", "?", "per_page"} {
		if strings.Contains(msg, bad) {
			t.Errorf("error %q quotes the request's query (%q)", msg, bad)
		}
	}
	if !strings.Contains(msg, addr) {
		t.Errorf("error %q does not name the server %s", msg, addr)
	}
}
