package pluginruntime

import (
	"os"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6/tf6server"

	"github.com/analytics-tf/terraform-provider-analytics/internal/redact"
)

// ProtoDataDirEnv is terraform-plugin-go's switch that dumps every
// request and answer to files (TF_LOG_SDK_PROTO_DATA_DIR).
const ProtoDataDirEnv = "TF_LOG_SDK_PROTO_DATA_DIR"

// Serve serves the provider's protocol 6 server (provider.NewServer: the
// framework's server behind the provider's gate) to Terraform, as
// providerserver.Serve does, once the process's standard error passes
// through the redactor (GateStderr). debug runs it for a debugger
// (tf6server.WithManagedDebug).
func Serve(address string, server func() (tfprotov6.ProviderServer, error), debug bool) error {
	// terraform-plugin-go writes every request and answer whole (the API
	// key, the headers, the passwords) to files under this folder, before
	// the gate sees them: a debugging switch that no redactor can cover, so
	// the release binary ignores it.
	if err := os.Unsetenv(ProtoDataDirEnv); err != nil {
		return err
	}
	flush, err := GateStderr(redact.String)
	if err != nil {
		return err
	}
	defer flush()
	// Build the server before serving, so that an error is returned
	// rather than ending the process inside tf6server.
	s, err := server()
	if err != nil {
		return err
	}
	var opts []tf6server.ServeOpt
	if debug {
		opts = append(opts, tf6server.WithManagedDebug())
	}
	return tf6server.Serve(address, func() tfprotov6.ProviderServer { return s }, opts...)
}
