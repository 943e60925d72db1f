// Package s3test runs a real S3-compatible object store on loopback for the
// tests and the benchmark of the statistics export: SeaweedFS's weed
// (server, volume, filer and S3 gateway in one process), built from the Go
// module proxy into .tools/bin/weed by scripts/install-tools.sh (make
// tool-weed). The store knows one identity, whose keys the tests give the
// provider through the AWS environment variables, as a pipeline would;
// nothing is ever reached but 127.0.0.1.
package s3test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/s3"
)

// The store's region and identities: an administrator (AccessKey, what
// the tests use to make buckets and read them back) and a writer that may
// only list, write and delete (WriterKey: what the provider gets, the
// permissions the docs ask for). The keys are made up for the tests; the
// secrets are long and distinctive so that tests can look for them in
// every output.
const (
	Region       = "us-east-1"
	AccessKey    = "ANALYTICSTESTADMIN"
	SecretKey    = "s3test-secret-9f1c27e4b8d5a0c3e6f7" //nolint:gosec // a made-up key of a loopback test store
	WriterKey    = "ANALYTICSTESTEXPORTER"
	WriterSecret = "s3test-writer-5b0e83d2a9c4f1e7d6a8" //nolint:gosec // a made-up key of a loopback test store
)

// EnvBinary names the weed binary (default: .tools/bin/weed of the
// repository); EnvBuildStatus, if set, is a file that a background build of
// it (make test) writes its exit status to once done: Binary waits for it.
const (
	EnvBinary      = "ANALYTICS_TEST_WEED"
	EnvBuildStatus = "ANALYTICS_TEST_WEED_BUILD_STATUS"
)

// buildWait bounds the wait for a background build of weed.
const buildWait = 20 * time.Minute

// Binary returns the path of weed, once a background build (EnvBuildStatus)
// is done. It returns "" with the reason when there is none, and an error
// when the build failed.
func Binary() (string, string, error) {
	if status := os.Getenv(EnvBuildStatus); status != "" {
		deadline := time.Now().Add(buildWait)
		for {
			raw, err := os.ReadFile(status)
			if err == nil && strings.TrimSpace(string(raw)) != "" {
				if rc := strings.TrimSpace(string(raw)); rc != "0" {
					return "", "", fmt.Errorf("the background build of weed failed (exit status %s): see %s",
						rc, strings.TrimSuffix(status, ".status")+".log")
				}
				break
			}
			if time.Now().After(deadline) {
				return "", "", fmt.Errorf("the background build of weed did not finish within %s (no status in %s)", buildWait, status)
			}
			time.Sleep(time.Second)
		}
	}
	bin := os.Getenv(EnvBinary)
	if bin == "" {
		root, err := repoRoot()
		if err != nil {
			return "", "", err
		}
		bin = filepath.Join(root, ".tools", "bin", "weed")
	}
	_, err := os.Stat(bin)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "", fmt.Sprintf("SeaweedFS's weed is not built (%s): run make tool-weed, or make test, which builds it", bin), nil
	case err != nil:
		return "", "", err
	}
	return bin, "", nil
}

// repoRoot is the directory of the repository's go.mod.
func repoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod above the working directory")
		}
		dir = parent
	}
}

// Server is a running weed with its S3 gateway.
type Server struct {
	Endpoint string // http://127.0.0.1:<port>
	Log      string // weed's output
	dir      string
	cmd      *exec.Cmd
	done     chan struct{}
	stopOnce sync.Once
}

// freePorts returns n ports free on 127.0.0.1 (as far as anyone can tell
// before they are used).
func freePorts(ctx context.Context, n int) ([]int, error) {
	var ls []net.Listener
	defer func() {
		for _, l := range ls {
			_ = l.Close()
		}
	}()
	var ports []int
	for range n {
		l, err := (&net.ListenConfig{}).Listen(ctx, "tcp", "127.0.0.1:0")
		if err != nil {
			return nil, err
		}
		ls = append(ls, l)
		addr, ok := l.Addr().(*net.TCPAddr)
		if !ok {
			return nil, fmt.Errorf("listening on %s: not a TCP address", l.Addr())
		}
		ports = append(ports, addr.Port)
	}
	return ports, nil
}

// Start starts weed from bin on loopback with its data in a new temporary
// directory, and waits until its S3 gateway takes requests.
func Start(ctx context.Context, bin string) (*Server, error) {
	dir, err := os.MkdirTemp("", "analytics-s3test-")
	if err != nil {
		return nil, err
	}
	s, err := start(ctx, bin, dir)
	if err != nil {
		_ = os.RemoveAll(dir)
		return nil, err
	}
	return s, nil
}

func start(ctx context.Context, bin, dir string) (*Server, error) {
	config := fmt.Sprintf(`{"identities":[`+
		`{"name":"admin","credentials":[{"accessKey":%q,"secretKey":%q}],"actions":["Admin","Read","List","Write","Tagging"]},`+
		`{"name":"exporter","credentials":[{"accessKey":%q,"secretKey":%q}],"actions":["List","Write"]}]}`,
		AccessKey, SecretKey, WriterKey, WriterSecret)
	if err := os.WriteFile(filepath.Join(dir, "s3.json"), []byte(config), 0o600); err != nil {
		return nil, err
	}
	// weed reads master.toml from its working directory: one volume per
	// new bucket instead of 7, so that a test's first write into its own
	// bucket does not wait seconds for their allocation.
	growth := "[master.volume_growth]\ncopy_1 = 1\ncopy_2 = 2\ncopy_3 = 3\ncopy_other = 1\n"
	if err := os.WriteFile(filepath.Join(dir, "master.toml"), []byte(growth), 0o600); err != nil {
		return nil, err
	}
	if err := os.Mkdir(filepath.Join(dir, "data"), 0o750); err != nil {
		return nil, err
	}
	p, err := freePorts(ctx, 8)
	if err != nil {
		return nil, err
	}
	port := func(i int) string { return strconv.Itoa(p[i]) }
	logPath := filepath.Join(dir, "weed.log")
	logFile, err := os.Create(logPath)
	if err != nil {
		return nil, err
	}
	defer logFile.Close()
	// Not ctx: weed lives until Stop, past the start's deadline.
	cmd := exec.CommandContext(context.WithoutCancel(ctx), bin, "server", "-ip=127.0.0.1", "-ip.bind=127.0.0.1", "-dir="+filepath.Join(dir, "data"),
		"-master.port="+port(0), "-master.port.grpc="+port(1), "-master.volumeSizeLimitMB=64",
		"-volume.port="+port(2), "-volume.port.grpc="+port(3), "-volume.max=500",
		"-filer", "-filer.port="+port(4), "-filer.port.grpc="+port(5),
		"-s3", "-s3.port="+port(6), "-s3.port.grpc="+port(7), "-s3.port.iceberg=0", "-s3.port.lance=0",
		"-s3.config="+filepath.Join(dir, "s3.json"))
	cmd.Dir = dir
	cmd.Stdout, cmd.Stderr = logFile, logFile
	setDeathSignal(cmd)
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	s := &Server{Endpoint: "http://127.0.0.1:" + port(6), Log: logPath, dir: dir, cmd: cmd, done: make(chan struct{})}
	go func() { _ = cmd.Wait(); close(s.done) }()
	if err := s.waitReady(ctx); err != nil {
		s.Stop()
		return nil, fmt.Errorf("%w\n%s", err, tail(logPath))
	}
	return s, nil
}

// waitReady waits until a bucket can be created and written to: the
// gateway answers before the filer and volume behind it are ready.
func (s *Server) waitReady(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, 90*time.Second)
	defer cancel()
	c := s.Client()
	var last error
	for {
		select {
		case <-s.done:
			return errors.New("weed exited while starting")
		default:
		}
		_, last = c.CreateBucket(ctx, &s3.CreateBucketInput{Bucket: aws.String("s3test-ready")})
		if last == nil {
			// The first write ever waits for weed's first volume (about
			// 8 s); later buckets take a fraction of a second.
			last = s.Put(ctx, "s3test-ready", "warm-up", "x")
			if last == nil {
				return nil
			}
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("weed's S3 gateway at %s did not get ready: %w", s.Endpoint, last)
		case <-time.After(250 * time.Millisecond):
		}
	}
}

// tail is the end of the file at path, for error messages.
func tail(path string) string {
	raw, _ := os.ReadFile(path)
	if len(raw) > 4000 {
		raw = raw[len(raw)-4000:]
	}
	return string(raw)
}

// Stop stops weed and removes its data.
func (s *Server) Stop() {
	s.stopOnce.Do(func() {
		if s.cmd.Process != nil {
			_ = s.cmd.Process.Kill()
			<-s.done
		}
		_ = os.RemoveAll(s.dir)
	})
}

// Client is an S3 client of the store with the test identity's keys.
func (s *Server) Client() *s3.Client {
	return s3.New(s3.Options{
		Region:       Region,
		BaseEndpoint: aws.String(s.Endpoint),
		UsePathStyle: true,
		Credentials:  credentials.NewStaticCredentialsProvider(AccessKey, SecretKey, ""),
		HTTPClient:   &http.Client{Timeout: 30 * time.Second},
	})
}

// CreateBucket creates the bucket name.
func (s *Server) CreateBucket(ctx context.Context, name string) error {
	_, err := s.Client().CreateBucket(ctx, &s3.CreateBucketInput{Bucket: aws.String(name)})
	return err
}

// Warm writes and deletes an object in bucket: the first write into a new
// bucket makes weed allocate its volume, which a measurement must not
// count.
func (s *Server) Warm(ctx context.Context, bucket string) error {
	if err := s.Put(ctx, bucket, "warm-up", "x"); err != nil {
		return err
	}
	_, err := s.Client().DeleteObject(ctx, &s3.DeleteObjectInput{Bucket: aws.String(bucket), Key: aws.String("warm-up")})
	return err
}

// Objects reads every object of bucket under prefix: key to content.
func (s *Server) Objects(ctx context.Context, bucket, prefix string) (map[string][]byte, error) {
	c := s.Client()
	out := map[string][]byte{}
	p := s3.NewListObjectsV2Paginator(c, &s3.ListObjectsV2Input{Bucket: aws.String(bucket), Prefix: aws.String(prefix)})
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			return nil, err
		}
		for _, o := range page.Contents {
			obj, err := c.GetObject(ctx, &s3.GetObjectInput{Bucket: aws.String(bucket), Key: o.Key})
			if err != nil {
				return nil, err
			}
			body, err := io.ReadAll(obj.Body)
			_ = obj.Body.Close()
			if err != nil {
				return nil, err
			}
			out[aws.ToString(o.Key)] = body
		}
	}
	return out, nil
}

// Put writes one object.
func (s *Server) Put(ctx context.Context, bucket, key, content string) error {
	_, err := s.Client().PutObject(ctx, &s3.PutObjectInput{Bucket: aws.String(bucket), Key: aws.String(key),
		Body: strings.NewReader(content)})
	return err
}

// Env is the environment that gives a process the test identity through
// the standard AWS variables, and nothing else of AWS: no shared files of
// the machine, no instance metadata (which would leave loopback).
func Env(accessKey, secretKey string) []string {
	env := []string{
		"AWS_REGION=" + Region, "AWS_EC2_METADATA_DISABLED=true",
		"AWS_CONFIG_FILE=" + os.DevNull, "AWS_SHARED_CREDENTIALS_FILE=" + os.DevNull,
		"AWS_PROFILE=", "AWS_SESSION_TOKEN=", "AWS_ROLE_ARN=", "AWS_WEB_IDENTITY_TOKEN_FILE=",
		"AWS_CONTAINER_CREDENTIALS_FULL_URI=", "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI=",
		"AWS_ACCESS_KEY_ID=" + accessKey, "AWS_SECRET_ACCESS_KEY=" + secretKey,
	}
	return env
}
