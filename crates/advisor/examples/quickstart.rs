//! Quick start: a scripted agent answers wrongly, a reviewer raises a concern,
//! the agent corrects itself. Runs offline.
//!
//! ```text
//! cargo run --example quickstart
//! ```

use advisor::host::Role;
use advisor::model::ScriptedModel;
use advisor::review::{self, Review};
use advisor::{AdvisorPlugin, Agent, Note};

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), advisor::Error> {
    // The agent: a scripted model that first gets the sum wrong, then fixes it.
    let model = ScriptedModel::texts([
        "Revenue for March was $4.2M (gross orders plus refunds).",
        "Revenue for March was $3.1M: gross orders of $3.6M minus $0.5M of refunds. \
         I had added refunds instead of subtracting them.",
    ]);

    // The reviewer: a closure here; a model or the rules reviewer in real use.
    let reviewer = review::from_sync_fn(|r: &Review| {
        let answer = r.final_answer.as_deref().unwrap_or_default();
        Ok(if answer.contains("plus refunds") {
            vec![Note::concern(
                "refunds reduce revenue; the answer adds them to gross orders",
            )]
        } else {
            vec![]
        })
    });

    let plugin = AdvisorPlugin::builder()
        .reviewer(reviewer)
        .on_notes(|e| {
            eprintln!(
                "[on_notes] round {} delivered={} notes={}",
                e.round,
                e.delivered,
                e.notes.len()
            )
        })
        .build()?;

    let outcome = Agent::new(model)
        .system("You are a careful analyst.")
        .extension(plugin)
        .run("What was revenue in March?")
        .await?;

    for m in &outcome.history {
        let who = match m.role {
            Role::System => continue,
            Role::User if m.content.contains("<advisory") => "advisor → agent",
            Role::User => "user",
            Role::Assistant => "agent",
            Role::Tool => "tool",
        };
        println!("── {who}\n{}\n", m.content);
    }
    for p in &outcome.progress {
        println!("(progress shown to the user: {p})");
    }
    println!("final answer: {}", outcome.final_answer);
    println!("stop reason: {}, turns: {}", outcome.stop_reason, outcome.turns);
    Ok(())
}
