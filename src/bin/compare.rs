//! The policy comparison's module: the console imports it when the comparison is opened, and
//! it mounts the comparison in the placeholder the console left for it.

fn main() {
    oncall_sim_web::policy::mount_comparison();
}
