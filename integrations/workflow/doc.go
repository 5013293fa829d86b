// Package workflow holds example files for users of plangate-gc and
// river-gc (river-gc-weekly.yml, a GitHub Actions workflow); its tests lint
// them and check them against upstream River Review's own workflows.
package workflow
