//! The policy panel's module: the console imports it when the panel is opened, and it mounts
//! the panel in the placeholder the console left for it.

fn main() {
    oncall_sim_web::policy::mount_policy();
}
