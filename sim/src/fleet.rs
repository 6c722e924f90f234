//! The fleet as individual instances: each has a state, a build and a boot time, so that
//! later layers can route requests per instance, drain them, and place them in regions.

use crate::time::Millis;

/// Allowed range of the fleet's minimum of instances. A minimum of 0 (scale to zero) is for
/// the policies that hold requests while the first instance starts (Cloud Run, the Knative
/// KPA); under the others the run refuses it.
pub const MIN_INSTANCES_RANGE: (u32, u32) = (0, 40);

/// The fleet's counts at one moment ([`Fleet::tally`]).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FleetTally {
    pub serving: u32,
    /// Serving instances on a bad build.
    pub serving_bad: u32,
    /// Booting instances, a rollback fleet being prepared included.
    pub booting: u32,
    /// Booting instances of the live fleet.
    pub booting_live: u32,
    pub draining: u32,
}

impl FleetTally {
    /// Share of the serving instances on a bad build ([`Fleet::serving_share`]).
    pub fn bad_share(&self) -> f64 {
        if self.serving == 0 {
            return 0.0;
        }
        f64::from(self.serving_bad) / f64::from(self.serving)
    }
}

/// Whether a build is bad, asked once per run of instances on the same build (the fleet
/// runs a build or two) where a sweep runs; the console's first download asks each time.
#[derive(Default)]
struct KnownBuild {
    #[cfg(feature = "extended")]
    last: Option<(u32, bool)>,
}

impl KnownBuild {
    #[cfg(feature = "extended")]
    fn is_bad(&mut self, build: u32, is_bad: impl Fn(u32) -> bool) -> bool {
        match self.last {
            Some((b, bad)) if b == build => bad,
            _ => {
                let bad = is_bad(build);
                self.last = Some((build, bad));
                bad
            }
        }
    }

    #[cfg(not(feature = "extended"))]
    fn is_bad(&mut self, build: u32, is_bad: impl Fn(u32) -> bool) -> bool {
        is_bad(build)
    }
}

/// Lifecycle of an instance.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum InstanceState {
    /// Started, not yet serving; serves from `ready_at_ms`.
    Booting { ready_at_ms: Millis },
    /// Taking traffic.
    Serving,
    /// Taking no new traffic; removed at `until_ms` (or when its requests finish).
    Draining { until_ms: Millis },
}

impl InstanceState {
    /// An instance started at `now_ms`: serving at once without a boot delay, else booting
    /// until `now_ms + boot_ms`.
    fn started(now_ms: Millis, boot_ms: Millis) -> Self {
        if boot_ms == 0 {
            InstanceState::Serving
        } else {
            InstanceState::Booting {
                ready_at_ms: now_ms + boot_ms,
            }
        }
    }
}

/// One instance of the service.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Instance {
    pub id: u32,
    pub state: InstanceState,
    /// Build it runs.
    pub build: u32,
    /// When it was started.
    pub started_at_ms: Millis,
    /// How long it takes to boot.
    pub boot_ms: Millis,
    /// Region index (0 while the service runs in one region).
    pub region: u8,
    /// Part of a rollback fleet still being prepared.
    pub rollback: bool,
}

/// All instances, started and not yet stopped.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct Fleet {
    /// The instances. Code outside this file only removes instances or reads them: a boot
    /// or a drain started elsewhere would escape [`Fleet::settle`]'s watch.
    pub instances: Vec<Instance>,
    next_id: u32,
    /// Before this time no boot of the live fleet and no drain ends (0: not known, look).
    #[serde(skip)]
    settled_until_ms: Millis,
    /// The region its instances start in.
    #[serde(skip)]
    pub region: u8,
}

/// Two fleets are equal when their instances are (the time until which nothing is due is
/// what one of them has looked up so far).
impl PartialEq for Fleet {
    fn eq(&self, other: &Self) -> bool {
        self.instances == other.instances
            && self.next_id == other.next_id
            && self.region == other.region
    }
}

impl Fleet {
    /// Starts `count` instances at `now_ms`, serving after `boot_ms`.
    pub fn start(
        &mut self,
        count: u32,
        now_ms: Millis,
        boot_ms: Millis,
        build: u32,
        rollback: bool,
    ) {
        self.settled_until_ms = 0;
        for _ in 0..count {
            let state = InstanceState::started(now_ms, boot_ms);
            self.instances.push(Instance {
                id: self.next_id,
                state,
                build,
                started_at_ms: now_ms,
                boot_ms,
                region: self.region,
                rollback,
            });
            self.next_id += 1;
        }
    }

    /// Starts again, at `now_ms`, the instances `ids` that left the fleet (a zone's, when it
    /// comes back): each keeps its id and serves after `boot_ms`.
    pub fn restart(&mut self, ids: &[u32], now_ms: Millis, boot_ms: Millis, build: u32) {
        self.settled_until_ms = 0;
        for &id in ids {
            debug_assert!(id < self.next_id && self.instances.iter().all(|i| i.id != id));
            let state = InstanceState::started(now_ms, boot_ms);
            self.instances.push(Instance {
                id,
                state,
                build,
                started_at_ms: now_ms,
                boot_ms,
                region: self.region,
                rollback: false,
            });
        }
    }

    /// Ids of the serving instances of the live fleet, oldest first.
    pub fn serving_ids(&self) -> Vec<u32> {
        self.instances
            .iter()
            .filter(|i| !i.rollback && i.state == InstanceState::Serving)
            .map(|i| i.id)
            .collect()
    }

    /// Boots and drains that end by `now_ms`: booting instances whose time has come start
    /// serving (rollback instances wait for the switch instead), and draining instances
    /// whose drain has ended leave. Returns (promoted, drained). Until the next of them is
    /// due, the instances are not walked again.
    pub fn settle(&mut self, now_ms: Millis) -> (u32, u32) {
        if now_ms < self.settled_until_ms {
            return (0, 0);
        }
        let (mut promoted, mut next) = (0, Millis::MAX);
        for inst in &mut self.instances {
            match inst.state {
                InstanceState::Booting { ready_at_ms } if !inst.rollback => {
                    if ready_at_ms <= now_ms {
                        inst.state = InstanceState::Serving;
                        promoted += 1;
                    } else {
                        next = next.min(ready_at_ms);
                    }
                }
                InstanceState::Draining { until_ms } if until_ms > now_ms => {
                    next = next.min(until_ms);
                }
                _ => {}
            }
        }
        let before = self.instances.len();
        self.instances.retain(
            |i| !matches!(i.state, InstanceState::Draining { until_ms } if until_ms <= now_ms),
        );
        self.settled_until_ms = next;
        (promoted, (before - self.instances.len()) as u32)
    }

    /// Stops up to `count` instances of the live fleet (not the rollback fleet): booting ones
    /// first, newest first, then serving ones, newest first. Returns how many stopped.
    pub fn stop(&mut self, count: u32) -> u32 {
        let booting = self.stop_newest(count, true);
        booting + self.stop_newest(count - booting, false)
    }

    /// Stops up to `count` serving instances of the live fleet, newest first, and no booting
    /// one. Returns how many stopped.
    pub fn stop_serving(&mut self, count: u32) -> u32 {
        self.stop_newest(count, false)
    }

    /// Stops up to `count` live instances that are booting (`booting`) or serving, newest
    /// first.
    fn stop_newest(&mut self, count: u32, booting: bool) -> u32 {
        let mut stopped = 0;
        while stopped < count {
            let pick = self.instances.iter().rposition(|i| {
                !i.rollback
                    && match i.state {
                        InstanceState::Booting { .. } => booting,
                        InstanceState::Serving => !booting,
                        InstanceState::Draining { .. } => false,
                    }
            });
            match pick {
                Some(ix) => {
                    self.instances.remove(ix);
                    stopped += 1;
                }
                None => break,
            }
        }
        stopped
    }

    /// Takes up to `count` instances of the live fleet out of service: booting ones stop at
    /// once (newest first), then serving ones, newest first, drain until `until_s` (no new
    /// traffic, still billed). Returns (stopped, draining).
    pub fn drain(&mut self, count: u32, until_ms: Millis) -> (u32, u32) {
        self.settled_until_ms = 0;
        let mut stopped = 0;
        while stopped < count {
            let pick = self
                .instances
                .iter()
                .rposition(|i| !i.rollback && matches!(i.state, InstanceState::Booting { .. }));
            match pick {
                Some(ix) => {
                    self.instances.remove(ix);
                    stopped += 1;
                }
                None => break,
            }
        }
        let mut draining = 0;
        for inst in self.instances.iter_mut().rev() {
            if stopped + draining >= count {
                break;
            }
            if !inst.rollback && inst.state == InstanceState::Serving {
                inst.state = InstanceState::Draining { until_ms };
                draining += 1;
            }
        }
        (stopped, draining)
    }

    /// Rolling update in place: `build` replaces the live fleet's older builds until
    /// ⌈live × done / minutes⌉ instances run it (oldest instances first).
    pub fn roll_out(&mut self, build: u32, done: u32, minutes: u32) {
        let live: Vec<usize> = (0..self.instances.len())
            .filter(|&i| !self.instances[i].rollback)
            .collect();
        let want = (live.len() as u32 * done.min(minutes)).div_ceil(minutes) as usize;
        let mut have = live
            .iter()
            .filter(|&&i| self.instances[i].build == build)
            .count();
        for &i in &live {
            if have >= want {
                break;
            }
            if self.instances[i].build != build {
                self.instances[i].build = build;
                have += 1;
            }
        }
    }

    /// Prepares a rollback fleet of `build`, as large as the live fleet, ready at
    /// `ready_ms`; with `restart`, the one being prepared starts its preparation again.
    /// Returns its size.
    pub fn prepare_rollback(
        &mut self,
        build: u32,
        now_ms: Millis,
        ready_ms: Millis,
        restart: bool,
    ) -> u32 {
        self.settled_until_ms = 0;
        if restart {
            for inst in self.instances.iter_mut().filter(|i| i.rollback) {
                inst.state = InstanceState::Booting {
                    ready_at_ms: ready_ms,
                };
            }
        } else {
            let n = self.live();
            self.start(n, now_ms, ready_ms - now_ms, build, true);
        }
        self.count(|i| i.rollback)
    }

    /// Switches traffic to the rollback fleet: the old instances stop and the rollback ones
    /// serve. Returns how many old instances stopped.
    pub fn switch_to_rollback(&mut self) -> u32 {
        let old = self.count(|i| !i.rollback);
        self.instances.retain(|i| i.rollback);
        for inst in &mut self.instances {
            inst.rollback = false;
            inst.state = InstanceState::Serving;
        }
        old
    }

    /// Whether a live (not rollback) instance runs a build for which `is_bad` holds.
    pub fn runs_live(&self, is_bad: impl Fn(u32) -> bool) -> bool {
        self.instances
            .iter()
            .any(|i| !i.rollback && is_bad(i.build))
    }

    pub fn serving(&self) -> u32 {
        self.count(|i| i.state == InstanceState::Serving)
    }

    /// Instances booting, including a rollback fleet being prepared.
    pub fn booting(&self) -> u32 {
        self.count(|i| matches!(i.state, InstanceState::Booting { .. }))
    }

    /// Booting instances of the live fleet (what the autoscaler waits for).
    pub fn booting_live(&self) -> u32 {
        self.count(|i| !i.rollback && matches!(i.state, InstanceState::Booting { .. }))
    }

    /// When the first booting instance of the live fleet will serve, if one is booting.
    pub fn next_ready_ms(&self) -> Option<Millis> {
        self.instances
            .iter()
            .filter(|i| !i.rollback)
            .filter_map(|i| match i.state {
                InstanceState::Booting { ready_at_ms } => Some(ready_at_ms),
                _ => None,
            })
            .min()
    }

    pub fn draining(&self) -> u32 {
        self.count(|i| matches!(i.state, InstanceState::Draining { .. }))
    }

    /// Serving plus booting instances of the live fleet.
    pub fn live(&self) -> u32 {
        self.count(|i| !i.rollback && !matches!(i.state, InstanceState::Draining { .. }))
    }

    /// Every instance that is billed: all of them, booting and draining included.
    pub fn billed(&self) -> u32 {
        self.instances.len() as u32
    }

    /// Share of serving instances running a build for which `is_bad` holds.
    pub fn serving_share(&self, is_bad: impl Fn(u32) -> bool) -> f64 {
        let serving = self.serving();
        if serving == 0 {
            return 0.0;
        }
        let bad = self.count(|i| i.state == InstanceState::Serving && is_bad(i.build));
        f64::from(bad) / f64::from(serving)
    }

    /// The counts a tick reads, in one pass over the instances; `is_bad` tells the bad
    /// builds.
    pub fn tally(&self, is_bad: impl Fn(u32) -> bool) -> FleetTally {
        let mut t = FleetTally::default();
        let mut known = KnownBuild::default();
        for i in &self.instances {
            match i.state {
                InstanceState::Serving => {
                    t.serving += 1;
                    t.serving_bad += u32::from(known.is_bad(i.build, &is_bad));
                }
                InstanceState::Booting { .. } => {
                    t.booting += 1;
                    t.booting_live += u32::from(!i.rollback);
                }
                InstanceState::Draining { .. } => t.draining += 1,
            }
        }
        t
    }

    fn count(&self, f: impl Fn(&Instance) -> bool) -> u32 {
        self.instances.iter().filter(|i| f(i)).count() as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boot_serve_stop() {
        let mut f = Fleet::default();
        f.start(3, 0, 0, 1, false);
        f.start(2, 0, 120_000, 1, false);
        assert_eq!(
            (f.serving(), f.booting(), f.live(), f.billed()),
            (3, 2, 5, 5)
        );
        assert_eq!(f.settle(60_000), (0, 0));
        assert_eq!(f.settle(120_000), (2, 0));
        f.start(1, 130_000, 60_000, 2, false);
        assert_eq!(f.stop(2), 2);
        // The booting one went first.
        assert_eq!((f.serving(), f.booting()), (4, 0));
        assert!((f.serving_share(|b| b == 1) - 1.0).abs() < 1e-12);
    }

    #[test]
    fn stop_serving_keeps_the_booting_ones() {
        let mut f = Fleet::default();
        f.start(2, 0, 0, 1, false);
        f.start(3, 0, 120_000, 1, false);
        assert_eq!(f.stop_serving(1), 1);
        assert_eq!((f.serving(), f.booting()), (1, 3));
        // No more than the serving ones go.
        assert_eq!(f.stop_serving(4), 1);
        assert_eq!((f.serving(), f.booting(), f.live()), (0, 3, 3));
    }

    #[test]
    fn drain_stops_booting_first_then_drains_serving() {
        let mut f = Fleet::default();
        f.start(3, 0, 0, 1, false);
        f.start(1, 0, 60_000, 1, false);
        assert_eq!(f.drain(2, 10_500), (1, 1));
        assert_eq!(
            (f.serving(), f.booting(), f.draining(), f.live(), f.billed()),
            (2, 0, 1, 2, 3)
        );
        assert_eq!(f.settle(10_000), (0, 0));
        assert_eq!(f.settle(10_500), (0, 1));
        assert_eq!(f.billed(), 2);
    }

    /// Settling skips the walk until the next boot or drain is due, and a boot, a drain or
    /// a rollback started since is never missed; rollback instances wait for the switch.
    #[test]
    fn settling_sees_every_boot_and_drain_started_since() {
        let mut f = Fleet::default();
        f.start(4, 0, 0, 1, false);
        f.start(1, 0, 90_000, 1, false);
        assert_eq!(f.settle(30_000), (0, 0));
        // Started after the look-up, due before the boot it found.
        f.start(1, 30_000, 10_000, 1, false);
        assert_eq!(f.settle(40_000), (1, 0));
        // The boot still under way stops; one serving instance drains.
        assert_eq!(f.drain(2, 50_000), (1, 1));
        assert_eq!(f.settle(45_000), (0, 0));
        assert_eq!(f.settle(50_000), (0, 1));
        f.prepare_rollback(2, 50_000, 55_000, false);
        assert_eq!(
            f.settle(60_000),
            (0, 0),
            "rollback instances wait for the switch"
        );
        assert_eq!(f.settle(90_000), (0, 0), "the drain stopped the last boot");
        assert_eq!((f.serving(), f.booting(), f.draining()), (4, 4, 0));
        f.switch_to_rollback();
        assert_eq!((f.serving(), f.booting()), (4, 0));
        // A fleet that has looked ahead equals one that has not.
        let mut g = f.clone();
        g.settle(100_000);
        assert_eq!(f, g);
    }
}
