//! The advisor inside a rig agent (feature `rig`), offline with rig's scripted
//! mock model: the first answer is wrong, the advisory reaches the model as a
//! user message, the corrected answer is final.
//!
//! ```text
//! cargo run --example rig --features rig
//! ```

use advisor::adapters::rig::RigAdvisor;
use advisor::review::{self, Review};
use advisor::{AdvisorPlugin, Note};
use rig_agent::agent::AgentBuilder;
use rig_core::test_utils::{MockCompletionModel, MockTurn};

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let model = MockCompletionModel::from_turns([
        MockTurn::text("March revenue was $4.2M (gross orders plus refunds)."),
        MockTurn::text("March revenue was $3.1M: $3.6M of orders minus $0.5M of refunds."),
    ]);
    let plugin = AdvisorPlugin::builder()
        .reviewer(review::from_sync_fn(|r: &Review| {
            let answer = r.final_answer.as_deref().unwrap_or_default();
            Ok(if answer.contains("plus refunds") {
                vec![Note::concern("refunds reduce revenue; the answer adds them")]
            } else {
                vec![]
            })
        }))
        .build()?;
    // Every re-open is one more model call: leave rig's max_turns room for
    // max_rounds (2) re-opens on top of the run's own turns.
    let response = AgentBuilder::new(model.clone())
        .add_hook(RigAdvisor::new(plugin))
        .build()
        .prompt("What was revenue in March?")
        .max_turns(1 + 2)
        .run()
        .await?;
    println!("model calls: {}", model.requests().len());
    println!("final answer: {}", response.output());
    Ok(())
}
