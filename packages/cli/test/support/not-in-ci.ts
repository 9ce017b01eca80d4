// ink decides once, when it is imported, whether it runs in CI, and then
// draws only the last frame. These tests are about what a person at a
// terminal sees, so they run as a terminal would, even when the suite itself
// runs in CI (CI=true). The commands' own refusal in CI is tested by
// starting the binary with CI set explicitly.
delete process.env.CI;
delete process.env.CONTINUOUS_INTEGRATION;
