package s3test

import (
	"fmt"
	"net/http"
	"strings"
	"time"
)

// Fault is one misbehaviour of a FaultProxy: which requests it hits
// (Kind, Nth, Key) and what it does to them (Action). Build faults with
// Delay, DropRequest, DropResponse, Answer, StripConditions and Before;
// several may hit one request: hooks and delays run first, then a strip,
// then the first of the answering actions (Answer, Reply, DropRequest,
// DropResponse), if any.
type Fault struct {
	// Kind limits the fault to requests of one kind ("" = every kind).
	Kind Kind
	// Nth limits it to the Nth request of Kind (1-based, counted by the
	// proxy over its whole life; with Kind "" over all requests); 0 hits
	// every matching request.
	Nth int
	// Key limits it to requests that name this key (a DeleteObjects names
	// every key of its body); "" = any.
	Key string
	// KeyPrefix limits it to requests that name a key starting so.
	KeyPrefix string
	// Limit is how many requests it hits at most (0 = no limit): with
	// Nth 0 and a key, "the first request that names this key".
	Limit int
	// When, if set, limits it further to the requests it returns true
	// for (a server that honours a condition only in some shapes: one-key
	// batches, say, or keys below one prefix).
	When func(Request) bool

	Action Action
	// Delay is how long ActDelay waits before forwarding (capped at
	// MaxDelay).
	Delay time.Duration
	// Status and Code are ActAnswer's HTTP status and S3 error code.
	Status int
	Code   string
	// Hook is what ActHook runs before forwarding (synchronously: the
	// request waits for it).
	Hook func(Request)
	// Reply is how ActReply answers, in the engine's place: a server
	// that acts one way and answers another (a redirect, a listing that
	// never ends). r's body has been read; body holds it.
	Reply func(w http.ResponseWriter, r *http.Request, body []byte)
}

// Action is what a Fault does.
type Action int

// The actions of a Fault.
const (
	// ActDelay waits Fault.Delay, then lets the request through.
	ActDelay Action = iota + 1
	// ActDropRequest reads the request and closes the connection without
	// forwarding it or answering: the engine never sees it.
	ActDropRequest
	// ActDropResponse forwards the request (the engine acts on it), then
	// sends the client the first half of the engine's answer and closes
	// the connection: the client cannot tell whether it happened.
	ActDropResponse
	// ActAnswer answers with Fault.Status and an S3 error document naming
	// Fault.Code, without forwarding.
	ActAnswer
	// ActStrip removes every condition (If-Match, If-None-Match,
	// If-Modified-Since, If-Unmodified-Since, the per-key ETags of a
	// DeleteObjects) and re-signs the request: an engine that accepts a
	// condition and ignores it.
	ActStrip
	// ActHook runs Fault.Hook, then lets the request through.
	ActHook
	// ActReply answers with Fault.Reply, without forwarding.
	ActReply
)

// MaxDelay caps every ActDelay, so a test cannot hang on a typo.
const MaxDelay = 30 * time.Second

// Delay delays every request of kind ("" = all) by d.
func Delay(kind Kind, d time.Duration) Fault {
	return Fault{Kind: kind, Action: ActDelay, Delay: d}
}

// DropRequest drops the nth request of kind (0 = every one) before the
// engine sees it.
func DropRequest(kind Kind, nth int) Fault {
	return Fault{Kind: kind, Nth: nth, Action: ActDropRequest}
}

// DropResponse lets the nth request of kind reach the engine and cuts
// its answer in half.
func DropResponse(kind Kind, nth int) Fault {
	return Fault{Kind: kind, Nth: nth, Action: ActDropResponse}
}

// Answer answers the nth request of kind with status and an S3 error
// code: 500 InternalError, 503 ServiceUnavailable, 503 SlowDown.
func Answer(kind Kind, nth, status int, code string) Fault {
	return Fault{Kind: kind, Nth: nth, Action: ActAnswer, Status: status, Code: code}
}

// SlowDown is Answer(kind, nth, 503, "SlowDown"), S3's throttling.
func SlowDown(kind Kind, nth int) Fault {
	return Answer(kind, nth, http.StatusServiceUnavailable, "SlowDown")
}

// StripConditions strips the conditions of every request: the engine
// then behaves as one that accepts a condition and ignores it.
func StripConditions() Fault { return Fault{Action: ActStrip} }

// Before runs hook before the nth request of kind reaches the engine: to
// rewrite an object between a scan and its delete, say.
func Before(kind Kind, nth int, hook func(Request)) Fault {
	return Fault{Kind: kind, Nth: nth, Action: ActHook, Hook: hook}
}

// Reply answers every request of kind ("" = all) with fn instead of the
// engine.
func Reply(kind Kind, fn func(w http.ResponseWriter, r *http.Request, body []byte)) Fault {
	return Fault{Kind: kind, Action: ActReply, Reply: fn}
}

// If returns f limited to the requests when returns true for.
func (f Fault) If(when func(Request) bool) Fault {
	f.When = when
	return f
}

// OnKey returns f limited to requests that name key.
func (f Fault) OnKey(key string) Fault {
	f.Key = key
	return f
}

// Times returns f limited to its first n hits.
func (f Fault) Times(n int) Fault {
	f.Limit = n
	return f
}

// OnKeyPrefix returns f limited to requests that name a key starting
// with prefix.
func (f Fault) OnKeyPrefix(prefix string) Fault {
	f.KeyPrefix = prefix
	return f
}

// String names f for logs: "answer 503 SlowDown on deletebatch #1".
func (f Fault) String() string {
	what := map[Action]string{ActDelay: "delay " + f.Delay.String(), ActDropRequest: "drop request",
		ActDropResponse: "drop response", ActAnswer: fmt.Sprintf("answer %d %s", f.Status, f.Code),
		ActStrip: "strip conditions", ActHook: "hook", ActReply: "reply"}[f.Action]
	on := "every request"
	if f.Kind != "" {
		on = string(f.Kind)
	}
	if f.Nth > 0 {
		on += fmt.Sprintf(" #%d", f.Nth)
	}
	if f.Key != "" {
		on += " naming " + f.Key
	}
	if f.KeyPrefix != "" {
		on += " naming " + f.KeyPrefix + "…"
	}
	if f.Limit > 0 {
		on += fmt.Sprintf(" (at most %d)", f.Limit)
	}
	if f.When != nil {
		on += " (when it says so)"
	}
	return what + " on " + on
}

// hits reports whether f applies to a request of kind, the n-th of its
// kind (total-th of all), naming keys.
func (f Fault) hits(kind Kind, n, total int, keys []string) bool {
	if f.Kind != "" && f.Kind != kind {
		return false
	}
	if f.Nth > 0 && ((f.Kind == "" && total != f.Nth) || (f.Kind != "" && n != f.Nth)) {
		return false
	}
	if f.Key == "" && f.KeyPrefix == "" {
		return true
	}
	for _, k := range keys {
		if (f.Key == "" || k == f.Key) && strings.HasPrefix(k, f.KeyPrefix) {
			return true
		}
	}
	return false
}

// Request is what a Fault's hook, and the proxy's log, see of one
// request.
type Request struct {
	Kind Kind
	// N is the request's number among those of its kind (1-based).
	N      int
	Bucket string
	// Keys are the keys the request names: the object's key, or every key
	// of a DeleteObjects body.
	Keys []string
	// Prefix is a listing's prefix.
	Prefix string
	// Conditions are the conditions the client sent: If-Match /
	// If-None-Match headers as "If-Match: <etag>", per-key ETags of a
	// batch as "<key>: <etag>".
	Conditions []string
	// Status is the HTTP status the client got (0 when dropped).
	Status int
	// Fault names what the proxy did to it ("" = forwarded untouched).
	Fault string
}
