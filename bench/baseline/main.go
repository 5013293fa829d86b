// Command baseline is the yardstick of bench/ratio: it decodes the skill
// input documents on stdin with encoding/json into typed structs and does
// nothing else, so plangate-gc --json can be reported as a ratio to the
// plainest Go program that reads the same bytes.
package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
)

type entry struct {
	Path      string `json:"path"`
	SizeBytes int64  `json:"sizeBytes"`
	Mtime     *int64 `json:"mtimeEpoch"`
	Type      string `json:"type"`
}

type document struct {
	Inventory struct {
		Scope string  `json:"scope"`
		Paths []entry `json:"paths"`
	} `json:"inventory"`
	Retention struct {
		Days       json.Number `json:"days"`
		MaxEntries json.Number `json:"maxEntries"`
		MaxSizeMb  json.Number `json:"maxSizeMb"`
	} `json:"retention"`
	Now        int64    `json:"now"`
	HardGuards []string `json:"hardGuards"`
	Excludes   []string `json:"excludes"`
}

func main() {
	dec := json.NewDecoder(os.Stdin)
	entries := 0
	for {
		var d document
		err := dec.Decode(&d)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "baseline:", err)
			os.Exit(1)
		}
		entries += len(d.Inventory.Paths)
	}
	fmt.Println(entries)
}
