package provider

import (
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
)

// The filters of the website list that the analytics_websites data source
// and the analytics_website list resource share: the API's own search and
// order, sent as query parameters of GET /websites.

// Descriptions of the shared filter attributes.
const (
	searchDescription = "Only websites whose domain contains this text, case-insensitively (API parameter `search`; " +
		"a substring match, not an exact one). Defaults to every website."
	sortByDescription = "Sort key: `id` (date created) or `domain` (API parameter `sort_by`). Defaults to `id`. The provider reads the list by id and orders it itself: by domain in lower case (by code point), then by id. The server orders websites that share a domain differently from one request to the next, so its own pages would not read the same twice."
	sortDescription   = "Sort order: `asc` or `desc` (API parameter `sort`). Defaults to `desc`, as the API does."
)

func searchValidators() []validator.String {
	return []validator.String{stringvalidator.LengthAtLeast(1)}
}

func sortByValidators() []validator.String {
	return []validator.String{stringvalidator.OneOf(client.SortByID, client.SortByDomain)}
}

func sortValidators() []validator.String {
	return []validator.String{stringvalidator.OneOf(client.SortAsc, client.SortDesc)}
}

// websiteListOptions are the query parameters of the list endpoint for the
// shared filters, 100 websites per page.
func websiteListOptions(search, sortBy, sort types.String) client.ListOptions {
	return client.ListOptions{
		Search:  search.ValueString(),
		SortBy:  sortBy.ValueString(),
		Sort:    sort.ValueString(),
		PerPage: client.MaxPerPage,
	}
}
