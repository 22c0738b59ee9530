//! .NET: `dotnet test`, `dotnet build`, and DocFX (`docfx`), which prints MSBuild's summary.
//!
//! One unit of the runner table: the readers of these runners' closing lines — `Passed!` /
//! `Failed!`, `Test Run …`, `Build succeeded.` / `Build FAILED.`, `error CS…` and `Test summary:
//! total: …` — beside their samples: written ones for the rows built with `row`, recorded runs
//! (`tests/fixtures/runner-output/`) for the others. Each reader takes one whole trimmed line, so a
//! test *named* `test_upload_failed` is no summary. The rows themselves are lines of the runner
//! table ([`table`](super::table)). Must not look at more than one line, nor decide what a run is.

use super::says::{Says, count_after, fail_if, says};

/// What a line says in [`Format::Dotnet`](super::format::Format::Dotnet):
/// `Passed!  - Failed: 0, Passed: 42` / `Failed!  - Failed: 2`.
pub(super) fn dotnet_line(l: &str) -> Option<Says> {
    let pass = l.starts_with("Passed!") || l == "Test Run Successful." || l == "Build succeeded.";
    let fail = l.starts_with("Failed!") || l == "Test Run Failed." || l == "Build FAILED.";
    if let Some(s) = says(pass, fail || l.contains(": error CS")) {
        return Some(s);
    }
    let i = l.find("Test summary: total:")?;
    fail_if(count_after(&l[i..], "failed:"))
}

#[cfg(test)]
mod tests {
    use super::super::samples::sample;

    sample!(dotnet_test, "dotnet test",
        pass: "Passed!  - Failed:     0, Passed:    42, Skipped:     0, Total:    42, Duration: 1 s - App.Tests.dll (net8.0)",
        fail: "  Failed CliSpec_ListsCommands [12 ms]\nFailed!  - Failed:     2, Passed:    40, Skipped:     0, Total:    42, Duration: 1 s - App.Tests.dll (net8.0)",
        quotes: "Failed! - Failed: 2, Passed: 40");
    sample!(dotnet_build, "dotnet build",
        pass: "Build succeeded.\n    0 Warning(s)\n    0 Error(s)",
        fail: "Program.cs(3,1): error CS0103: The name 'x' does not exist in the current context\nBuild FAILED.",
        quotes: "error CS0103");
    // DocFX's passing output is from hindermath/TinyCalc's committed Codex rollouts
    // (tests/fixtures/real/repos/hindermath-tinycalc/, 019cc3c3 line 321); its crashes
    // there (exit 255) print only a stack trace, read by the exit status. The failing
    // sample (derived) is a compiler error of the project it reads.
    sample!(docfx, "docfx metadata docfx.json",
        pass: "Processing TuiVision.Core\nCreating output...\n.NET API done in 00:00:00.6076142\n\n\nBuild succeeded.\n\n    0 warning(s)\n    0 error(s)\n",
        fail: "Processing TuiVision.Core\nsrc/TuiVision.Core/TRect.cs(65,34): error CS1002: ; expected\n",
        quotes: "error CS1002");
}
