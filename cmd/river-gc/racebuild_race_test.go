//go:build race

package main

// raceBuild: this test binary has the race detector (go test -race).
const raceBuild = true
