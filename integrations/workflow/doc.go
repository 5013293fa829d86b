// Package workflow holds example files for users of plangate-gc and
// river-gc (weekly-gc.yml, a GitHub Actions workflow); its tests lint them.
package workflow
