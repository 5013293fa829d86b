// Package faulttest runs the real river-gc binary on a bucket of the
// tests' S3 engine through internal/s3test's fault proxy: delays, dropped
// requests and answers, 500/503/SlowDown, conditions stripped, an object
// rewritten between the scan and its delete, and SIGKILL mid-run. Its
// tests check what SPEC H3, H4 and H7 promise: no double delete, no lost
// record, nothing deleted that changed. The package holds tests only.
package faulttest
