//! Entry point of the web console: mounts the app and nothing else.

fn main() {
    oncall_sim_web::mount();
}
