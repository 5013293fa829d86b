package s3

import (
	"errors"
	"os"
	"time"

	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
)

// TimeoutEnv names the variable that sets how long one HTTP attempt may
// take, from its connection to the last byte of its answer (a Go
// duration: "90s", "10m"). An S3 server that accepts a request and
// never answers, or answers a byte at a time, would otherwise hold a run
// for ever; the SDK retries an attempt that timed out like
// any lost answer, and every delete carries its condition, so a retried
// one never removes a newer object.
const TimeoutEnv = "RIVER_GC_S3_TIMEOUT"

// DefaultTimeout bounds one attempt when TimeoutEnv is unset: far above
// what a DeleteObjects of 1000 keys takes on a loaded engine (about a
// minute with 16 in flight here, decision 248), and far below a CI job's
// limit.
const DefaultTimeout = 5 * time.Minute

// ErrBadTimeout means TimeoutEnv is set to no positive duration.
var ErrBadTimeout = errors.New("not a positive duration")

// attemptTimeout reads TimeoutEnv.
func attemptTimeout() (time.Duration, error) {
	v := os.Getenv(TimeoutEnv)
	if v == "" {
		return DefaultTimeout, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil || d <= 0 {
		return 0, ErrBadTimeout
	}
	return d, nil
}

// httpClient is the SDK's own client with every attempt bounded by d; it
// stays a BuildableClient, so AWS_CA_BUNDLE still applies to it.
func httpClient(d time.Duration) *awshttp.BuildableClient {
	return awshttp.NewBuildableClient().WithTimeout(d)
}
