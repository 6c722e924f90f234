fn main() {
    let id = std::env::args().nth(1).unwrap_or("free-play".into());
    let n: u32 = std::env::args()
        .nth(2)
        .map(|s| s.parse().unwrap())
        .unwrap_or(5);
    let acts: Vec<oncall_sim::Action> = std::env::args()
        .skip(3)
        .map(|a| oncall_sim::Action::parse(&a, 10000).unwrap())
        .collect();
    let s = oncall_sim::scenario::by_id(&id).unwrap();
    print!(
        "{}",
        oncall_sim::run_jsonl(&s, 42, Default::default(), &acts, n)
    );
}
