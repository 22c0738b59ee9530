//! Unit tests of the code-mode reader: the `cmd` extractor on JavaScript
//! shaped like the cells of the real Codex Desktop 0.144.2 rollout, the
//! header split, and a property test that no input panics the extractor.

use super::*;

fn cmd_of(js: &str) -> Option<(String, Option<String>)> {
    let args: Value = serde_json::from_str(&shell_args(js)?).ok()?;
    let cmd = args.get("cmd")?.as_str()?.to_owned();
    let dir = args.get("workdir").and_then(Value::as_str).map(str::to_owned);
    Some((cmd, dir))
}

#[test]
fn a_cells_exec_command_becomes_its_command_line() {
    // the shape of the real cell at l.246 of the 0.144.2 rollout
    let js = r#"const r = await tools.exec_command({cmd:"mise run lint && cargo test x -- --nocapture","workdir":"/w/hk","yield_time_ms":30000,"max_output_tokens":30000});text(r.output)
"#;
    assert_eq!(
        cmd_of(js),
        Some((
            "mise run lint && cargo test x -- --nocapture".to_owned(),
            Some("/w/hk".to_owned())
        ))
    );
}

#[test]
fn escapes_are_decoded_and_keys_may_be_quoted_or_bare() {
    let js = r#"await tools.exec_command({ "cmd": "git log --format='%h' \"a b\"\\n\nprintf 'x=%s\\n' \"$?\" \u00e9 \x41 \u{1F600} \ud83d\ude00", workdir: '/w' })"#;
    let (cmd, dir) = cmd_of(js).unwrap();
    assert_eq!(
        cmd,
        "git log --format='%h' \"a b\"\\n\nprintf 'x=%s\\n' \"$?\" é A 😀 😀"
    );
    assert_eq!(dir.as_deref(), Some("/w"));
}

#[test]
fn several_calls_are_one_command_line_each() {
    // the shape of l.21 of the real rollout: `Promise.all` of two calls, other keys before `cmd`
    let js = r#"const [g,s] = await Promise.all([
  tools.exec_command({yield_time_ms: 10000, env: {A: "}", B: [1, 2]}, cmd:"gh api graphql -f query='q'"}),
  tools.exec_command({cmd:`cargo
  test`, /* comment */ workdir:"/w"}), // trailing
]);
text("DISCUSSION\n" + g.output);"#;
    let (cmd, dir) = cmd_of(js).unwrap();
    assert_eq!(cmd, "gh api graphql -f query='q'\ncargo\n  test");
    assert_eq!(dir.as_deref(), Some("/w"));
}

#[test]
fn cells_it_cannot_read_stay_as_they_are() {
    for js in [
        // no shell command: a tool search, a patch, a write_stdin poll
        "const hits = ALL_TOOLS.filter(x => /github/.test(x.name)); text(hits);",
        r#"const patch = "*** Begin Patch\n"; await tools.apply_patch(patch);"#,
        r#"const r=await tools.write_stdin({session_id:44765,chars:""});text(JSON.stringify(r));"#,
        // a computed command, a template with a substitution, a shorthand, a spread
        r#"const c = "ls"; await tools.exec_command({cmd: c});"#,
        r#"await tools.exec_command({cmd: `ls ${dir}`});"#,
        r#"const cmd = "ls"; await tools.exec_command({cmd});"#,
        r#"await tools.exec_command({...opts});"#,
        // cut or malformed
        r#"await tools.exec_command({cmd:"ls"#,
        r#"await tools.exec_command({cmd:"ls" "#,
        r#"await tools.exec_command({cmd:"a\u12"})"#,
        r#"await tools.exec_command({cmd:"a
b"})"#,
        r#"await tools.exec_command({workdir:"/w"})"#,
        "await tools.exec_command(opts)",
        "",
    ] {
        assert_eq!(shell_args(js), None, "{js}");
    }
}

#[test]
fn reading_is_bounded_in_bytes_and_calls() {
    let one = r#"tools.exec_command({cmd:"ls"});"#;
    assert!(shell_args(&one.repeat(MAX_CALLS)).is_some());
    assert_eq!(shell_args(&one.repeat(MAX_CALLS + 1)), None);
    // a call past the scanned bytes is not seen; one cut by the bound leaves the cell as it is
    let pad = " ".repeat(MAX_SCAN);
    assert_eq!(shell_args(&format!("{pad}{one}")), None);
    let cut = format!("{}{one}", " ".repeat(MAX_SCAN - 25));
    assert_eq!(shell_args(&cut), None);
}

#[test]
fn the_hosts_header_is_split_from_what_the_cell_printed() {
    let done = "Script completed\nWall time 12.1 seconds\nOutput:\n";
    assert_eq!(
        parse_output(&format!("{done}\nerror: x\n"), true),
        Some((Status::Done, "error: x\n"))
    );
    assert_eq!(parse_output(&format!("{done}ok"), false), Some((Status::Done, "ok")));
    assert_eq!(
        parse_output(
            "Script running with cell ID 27\nWall time 10.0 seconds\nOutput:\n",
            false
        ),
        Some((Status::Running("27".to_owned()), ""))
    );
    // Codex CLI 0.171's wall-time line carries the host's own timings
    assert_eq!(
        parse_output(
            "Script completed\nWall time 1.0 seconds (code-mode 0.9 seconds; overhead 0.1 seconds)\nOutput:\nhi",
            false
        ),
        Some((Status::Done, "hi"))
    );
    assert_eq!(
        parse_output("Script error: ReferenceError: x is not defined\nOutput:\n", false),
        Some((Status::Error("ReferenceError: x is not defined".to_owned()), ""))
    );
    // what a cell prints is never a header
    for text in [
        "Output:\nScript completed",
        "ok\nScript completed\nOutput:\n",
        "Script completed\nexit code 0\nOutput:\n",
        "Script completed\n",
    ] {
        assert_eq!(parse_output(text, false), None, "{text}");
    }
}

#[test]
fn a_wait_names_its_cell() {
    assert_eq!(
        waited_cell(r#"{"cell_id":"27","yield_time_ms":30000}"#).as_deref(),
        Some("27")
    );
    assert_eq!(waited_cell(r#"{"cell_id":27}"#).as_deref(), Some("27"));
    assert_eq!(waited_cell(r#"{"session_id":27}"#), None);
    assert_eq!(waited_cell("not json"), None);
}

proptest::proptest! {
    #[test]
    fn no_input_panics_the_cmd_extractor(input in ".{0,400}", tail in proptest::collection::vec(proptest::prelude::any::<char>(), 0..80)) {
        let _ = shell_args(&input);
        let tail: String = tail.into_iter().collect();
        for prefix in ["tools.exec_command({cmd:\"", "tools.exec_command({cmd:`", "tools.exec_command({'cmd':'a\\", "tools.exec_command({a:[", "tools.exec_command({cmd:\"\\u{"] {
            let _ = shell_args(&format!("{prefix}{tail}"));
            let _ = shell_args(&format!("{prefix}{input}"));
        }
        let _ = parse_output(&input, true);
    }
}
