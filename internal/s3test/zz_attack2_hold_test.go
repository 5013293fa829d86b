package s3test

import (
	"os"
	"strings"
	"testing"
	"time"
)

func TestZZHoldEngine(t *testing.T) {
	if os.Getenv("A2_HOLD") == "" {
		t.Skip("A2_HOLD")
	}
	s := Start(t)
	c := s.Client()
	_ = c
	b := s.Bucket(t, false)
	os.WriteFile("/tmp/a2/eng/env", []byte(strings.Join(append(s.Env(), "BUCKET="+b), "\n")+"\n"), 0o644)
	time.Sleep(20 * time.Minute)
}
