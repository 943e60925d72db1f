package repotest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/acctest"
)

// TestAccMakeInstall runs `make install` as a newcomer would, with a fresh
// home directory, then `init` and `validate` of a configuration that
// requires the provider, with the CLI of TF_ACC_TERRAFORM_PATH and no CLI
// configuration at all: the CLI must find the provider in the filesystem
// mirror that make install wrote, without network access and without
// dev_overrides.
func TestAccMakeInstall(t *testing.T) {
	acctest.CLIDependent(t, "terraform init and tofu init find the installed provider (each under its registry host)")
	cli, root := cliTest(t)
	home := t.TempDir()

	// The environment of a fresh login: HOME replaced, no CLI configuration
	// or plugin cache, no make of ours around, the Go caches kept (so the
	// build is incremental).
	env := []string{"HOME=" + home, "CHECKPOINT_DISABLE=1", "TF_IN_AUTOMATION=1"}
	for _, kv := range acctest.GoCommandEnv() {
		name, _, _ := strings.Cut(kv, "=")
		switch {
		case name == "HOME", name == "TF_CLI_CONFIG_FILE", name == "TERRAFORM_CONFIG",
			name == "TF_PLUGIN_CACHE_DIR", name == "MAKEFLAGS", name == "MFLAGS", name == "MAKELEVEL",
			name == "VERSION", name == "PLUGIN_DIR", strings.HasPrefix(name, "TF_ACC"):
			continue
		}
		env = append(env, kv)
	}
	for _, name := range []string{"GOCACHE", "GOMODCACHE", "GOPATH", "GOENV"} {
		out, err := exec.Command("go", "env", name).Output()
		if err != nil {
			t.Fatalf("go env %s: %v", name, err)
		}
		env = append(env, name+"="+strings.TrimSpace(string(out)))
	}

	version := "0.0.1"
	install := exec.Command("make", "--no-print-directory", "install", "VERSION="+version)
	install.Dir = root
	install.Env = env
	out, err := install.CombinedOutput()
	if err != nil {
		t.Fatalf("make install: %v\n%s", err, out)
	}
	for _, host := range []string{"registry.terraform.io", "registry.opentofu.org"} {
		dir := filepath.Join(home, ".terraform.d", "plugins", host, "analytics-tf", "analytics", version)
		if !strings.Contains(string(out), dir) {
			t.Errorf("make install does not name %s:\n%s", dir, out)
		}
	}
	if !strings.Contains(string(out), "dev_overrides") {
		t.Errorf("make install does not print the dev_overrides alternative:\n%s", out)
	}

	work := t.TempDir()
	config := `terraform {
  required_providers {
    analytics = {
      source  = "analytics-tf/analytics"
      version = "` + version + `"
    }
  }
}

provider "analytics" {
  base_url = "https://analytics.example.com"
  api_key  = "not-used-by-validate"
}

resource "analytics_website" "shop" {
  domain  = "shop.example.com"
  privacy = "private"
}
`
	if err := os.WriteFile(filepath.Join(work, "main.tf"), []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}
	run := func(args ...string) string {
		t.Helper()
		cmd := exec.Command(cli, args...)
		cmd.Dir = work
		cmd.Env = env
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s %s: %v\n%s", filepath.Base(cli), args[0], err, out)
		}
		return string(out)
	}
	if out := run("init", "-input=false", "-no-color"); !strings.Contains(out, "Installed analytics-tf/analytics v"+version) {
		t.Fatalf("init did not install the provider from the mirror:\n%s", out)
	}
	if out := run("validate", "-no-color"); !strings.Contains(out, "The configuration is valid") {
		t.Fatalf("unexpected validate output:\n%s", out)
	}
	lock, err := os.ReadFile(filepath.Join(work, ".terraform.lock.hcl"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(lock), `version     = "`+version+`"`) {
		t.Fatalf("the lock file does not pin %s:\n%s", version, lock)
	}
}
