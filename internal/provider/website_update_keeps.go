package provider

import (
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
)

// keepPlannedKept holds, in the state an update writes, the planned value
// of each attribute the update left out (kept: see keptByUpdate). The
// server's answer shows what it holds now, which differs when the web
// interface or another client changed it after the plan; Terraform
// requires the state to be what the plan said, and the next refresh reads
// the server's. The password attributes follow a privacy kept so.
func keepPlannedKept(m *websiteResourceModel, planned websiteResourceModel, kept []websiteAttribute, diags *diag.Diagnostics) {
	for _, a := range kept {
		if m.attribute(a.name).Equal(planned.attribute(a.name)) {
			continue
		}
		m.setAttribute(a.name, planned.attribute(a.name))
		if a.name == "privacy" {
			m.Password, m.PasswordWOVer = planned.Password, planned.PasswordWOVer
		}
		diags.AddAttributeWarning(path.Root(a.name), a.name+" Changed Since the Plan",
			fmt.Sprintf("The %s of the website %q changed on the server since this resource's state was last read "+
				"(in the web interface or by another client). The update, which did not change it, left it out, so "+
				"that the server keeps the new value, and this resource's state holds the planned value until the "+
				"next refresh. Run terraform plan to see the change.", a.name, m.Domain.ValueString()))
	}
}
