//! Checkpoint restore never panics on any JSON, and a state it accepts saves
//! and restores again to the same state.
#![no_main]

use advisor::host::Checkpoint;
use advisor::review::{self, Review};
use advisor::{AdvisorPlugin, plugin::NamedReviewer};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(state) = serde_json::from_slice::<serde_json::Value>(data) else { return };
    let plugins = [
        AdvisorPlugin::builder().reviewer(review::from_sync_fn(|_r: &Review| Ok(vec![]))).build(),
        AdvisorPlugin::builder()
            .add_reviewer(NamedReviewer::new("a", review::from_sync_fn(|_r: &Review| Ok(vec![]))))
            .add_reviewer(NamedReviewer::new("b", review::from_sync_fn(|_r: &Review| Ok(vec![]))))
            .build(),
    ];
    for plugin in plugins.into_iter().flatten() {
        let mut run = plugin.start_run();
        if Checkpoint::restore(&mut run, state.clone()).is_ok() {
            let saved = Checkpoint::save(&run).expect("save");
            let mut again = plugin.start_run();
            Checkpoint::restore(&mut again, saved.clone()).expect("a saved state restores");
            assert_eq!(Checkpoint::save(&again).expect("save"), saved);
        }
    }
});
