//! Commands from the page around the console (`postMessage`), queued and carried out by the
//! frame loop rather than one by one as they arrive.
//!
//! A host page may send thousands of commands in a burst. Carried out as they arrive, each
//! would rebuild the run or publish a snapshot (and tell the host page so) in a task of its
//! own. Queued, they are coalesced: a reset makes every command queued before it moot but the
//! speed (the clock's, which a reset keeps), so the queue holds at most one reset and the frame
//! loop rebuilds the run at most once a frame; the rest is carried out in order, steps within
//! the frame's time budget. Pure and tested natively.

use oncall_sim::ActionKind;

/// A command the console obeys, already checked.
#[derive(Clone, Debug)]
#[cfg_attr(test, derive(PartialEq))]
pub enum HostCommand {
    Play,
    Pause,
    /// Simulate one minute.
    Step,
    /// Start the run over (same scenario and seed, no actions).
    Reset,
    /// The clock's speed, as an index into the speeds.
    Speed(usize),
    /// An action for the next minute.
    Act(ActionKind),
}

/// Most commands waiting at once; more are refused until the frame loop catches up.
pub const MAX_QUEUED: usize = 1000;

/// The commands waiting for the next frame, coalesced as they come.
#[derive(Debug, Default)]
pub struct CommandQueue {
    /// In the order they came (a plain list: it is taken whole by the frame loop).
    waiting: Vec<HostCommand>,
}

/// A command that did not fit: the queue is full.
#[derive(Debug, PartialEq, Eq)]
pub struct QueueFull;

impl CommandQueue {
    /// Queues `command`. A reset drops what it makes moot: the commands before it but the
    /// last speed, and a reset already waiting is not repeated.
    pub fn push(&mut self, command: HostCommand) -> Result<(), QueueFull> {
        if matches!(command, HostCommand::Reset) {
            let speed = self
                .waiting
                .iter()
                .rev()
                .find(|c| matches!(c, HostCommand::Speed(_)))
                .cloned();
            self.waiting.clear();
            self.waiting.extend(speed);
            self.waiting.push(HostCommand::Reset);
            return Ok(());
        }
        if self.waiting.len() >= MAX_QUEUED {
            return Err(QueueFull);
        }
        // Speeds one after another: only the last counts.
        if let (HostCommand::Speed(_), Some(HostCommand::Speed(_))) =
            (&command, self.waiting.last())
        {
            self.waiting.pop();
        }
        self.waiting.push(command);
        Ok(())
    }

    /// Every command waiting, in order; the queue is left empty.
    pub fn take_all(&mut self) -> Vec<HostCommand> {
        std::mem::take(&mut self.waiting)
    }

    /// Puts back commands taken but not carried out (the frame's time was up), ahead of any
    /// that came since.
    pub fn put_back(&mut self, mut rest: Vec<HostCommand>) {
        rest.append(&mut self.waiting);
        self.waiting = rest;
    }

    pub fn is_empty(&self) -> bool {
        self.waiting.is_empty()
    }

    pub fn len(&self) -> usize {
        self.waiting.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn drain(queue: &mut CommandQueue) -> Vec<HostCommand> {
        queue.take_all()
    }

    #[test]
    fn a_burst_of_resets_is_one_reset() {
        let mut queue = CommandQueue::default();
        for _ in 0..10_000 {
            queue.push(HostCommand::Reset).unwrap();
        }
        assert_eq!(drain(&mut queue), vec![HostCommand::Reset]);
    }

    #[test]
    fn a_reset_drops_what_came_before_it_but_the_speed() {
        let mut queue = CommandQueue::default();
        queue.push(HostCommand::Speed(2)).unwrap();
        queue.push(HostCommand::Act(ActionKind::Rollback)).unwrap();
        queue.push(HostCommand::Play).unwrap();
        queue.push(HostCommand::Speed(4)).unwrap();
        queue.push(HostCommand::Step).unwrap();
        queue.push(HostCommand::Reset).unwrap();
        queue.push(HostCommand::Act(ActionKind::WarmCache)).unwrap();
        queue.push(HostCommand::Reset).unwrap();
        queue.push(HostCommand::Play).unwrap();
        assert_eq!(
            drain(&mut queue),
            vec![HostCommand::Speed(4), HostCommand::Reset, HostCommand::Play]
        );
    }

    #[test]
    fn commands_keep_their_order_and_speeds_in_a_row_collapse() {
        let mut queue = CommandQueue::default();
        queue.push(HostCommand::Act(ActionKind::Rollback)).unwrap();
        queue.push(HostCommand::Speed(1)).unwrap();
        queue.push(HostCommand::Speed(5)).unwrap();
        queue.push(HostCommand::Step).unwrap();
        queue.push(HostCommand::Step).unwrap();
        queue.push(HostCommand::Pause).unwrap();
        assert_eq!(
            drain(&mut queue),
            vec![
                HostCommand::Act(ActionKind::Rollback),
                HostCommand::Speed(5),
                HostCommand::Step,
                HostCommand::Step,
                HostCommand::Pause
            ]
        );
    }

    #[test]
    fn the_queue_is_bounded_and_a_reset_always_fits() {
        let mut queue = CommandQueue::default();
        for _ in 0..MAX_QUEUED {
            queue.push(HostCommand::Step).unwrap();
        }
        assert_eq!(queue.push(HostCommand::Step), Err(QueueFull));
        assert_eq!(queue.len(), MAX_QUEUED);
        queue.push(HostCommand::Reset).unwrap();
        assert_eq!(drain(&mut queue), vec![HostCommand::Reset]);
    }

    #[test]
    fn commands_put_back_come_before_those_that_came_since() {
        let mut queue = CommandQueue::default();
        queue.push(HostCommand::Step).unwrap();
        queue.push(HostCommand::Pause).unwrap();
        let taken = queue.take_all();
        assert!(queue.is_empty());
        queue.push(HostCommand::Play).unwrap();
        queue.put_back(taken);
        assert_eq!(
            drain(&mut queue),
            vec![HostCommand::Step, HostCommand::Pause, HostCommand::Play]
        );
    }
}
