//! A binary min-heap of times in a `Vec<f64>` that is allocated once and reused: the free
//! times of an instance's busy workers, and the leave times of the requests it holds.

/// An entry of a `BinaryHeap` (a max-heap) that pops the earliest `time` first and, of equal
/// times, the first pushed (the lower `seq`): the event list's events, the outcomes outlier
/// detection awaits and the slow-start scheduler's deadlines.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Earliest<T> {
    pub(crate) time: f64,
    pub(crate) seq: u64,
    pub(crate) item: T,
}

impl<T> Ord for Earliest<T> {
    fn cmp(&self, other: &Self) -> core::cmp::Ordering {
        other
            .time
            .total_cmp(&self.time)
            .then(other.seq.cmp(&self.seq))
    }
}
impl<T> PartialOrd for Earliest<T> {
    fn partial_cmp(&self, other: &Self) -> Option<core::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl<T> PartialEq for Earliest<T> {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == core::cmp::Ordering::Equal
    }
}
impl<T> Eq for Earliest<T> {}

/// Min-heap of finite times.
#[derive(Clone, Debug, Default)]
pub(crate) struct TimeHeap {
    items: Vec<f64>,
}

impl TimeHeap {
    pub(crate) fn len(&self) -> usize {
        self.items.len()
    }

    /// The earliest time, if any.
    pub(crate) fn min(&self) -> Option<f64> {
        self.items.first().copied()
    }

    /// The times in heap order (for sums over every entry).
    pub(crate) fn iter(&self) -> impl Iterator<Item = f64> + '_ {
        self.items.iter().copied()
    }

    pub(crate) fn push(&mut self, time: f64) {
        self.items.push(time);
        let mut i = self.items.len() - 1;
        while i > 0 {
            let parent = (i - 1) / 2;
            if self.items[parent] <= time {
                break;
            }
            self.items[i] = self.items[parent];
            i = parent;
        }
        self.items[i] = time;
    }

    /// Replaces the earliest time by `time` (a worker takes its next request).
    pub(crate) fn replace_min(&mut self, time: f64) {
        if self.items.is_empty() {
            self.items.push(time);
            return;
        }
        self.sift_down_from_root(time);
    }

    /// Removes every time at or before `now`; returns how many were removed.
    pub(crate) fn drop_until(&mut self, now: f64) -> usize {
        let before = self.items.len();
        while let Some(first) = self.min() {
            if first > now {
                break;
            }
            let Some(last) = self.items.pop() else { break };
            if !self.items.is_empty() {
                self.sift_down_from_root(last);
            }
        }
        before - self.items.len()
    }

    /// Puts `time` at the root and moves it to its place, as Floyd's variant of the sift does
    /// (R. W. Floyd, "Algorithm 245: Treesort 3", CACM 7(12), 1964; the analysis in Knuth,
    /// TAOCP vol. 3, §5.2.3, ex. 18): the hole at the root goes down to a leaf, always taking
    /// the smaller child, with one comparison a level and no test against `time`, whose
    /// outcome a processor cannot guess; then `time`, usually one of the latest (the last
    /// entry, or a worker's next free time), rises from that leaf, rarely more than a level.
    fn sift_down_from_root(&mut self, time: f64) {
        let items = self.items.as_mut_slice();
        let n = items.len();
        let mut hole = 0;
        loop {
            let left = 2 * hole + 1;
            if left + 1 < n {
                let child = left + usize::from(items[left + 1] < items[left]);
                items[hole] = items[child];
                hole = child;
            } else {
                if left < n {
                    items[hole] = items[left];
                    hole = left;
                }
                break;
            }
        }
        while hole > 0 {
            let parent = (hole - 1) / 2;
            if items[parent] <= time {
                break;
            }
            items[hole] = items[parent];
            hole = parent;
        }
        items[hole] = time;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Mulberry32;

    #[test]
    fn keeps_the_minimum_at_the_root() {
        let mut rng = Mulberry32::new(3);
        let mut heap = TimeHeap::default();
        let mut plain = Vec::new();
        for _ in 0..500 {
            let x = rng.uniform();
            heap.push(x);
            plain.push(x);
        }
        plain.sort_by(f64::total_cmp);
        assert_eq!(heap.min(), Some(plain[0]));
        assert_eq!(heap.drop_until(plain[199]), 200);
        assert_eq!(heap.len(), 300);
        assert_eq!(heap.min(), Some(plain[200]));
        heap.replace_min(2.0);
        assert_eq!(heap.min(), Some(plain[201]));
        assert_eq!(heap.len(), 300);
    }

    /// Pushes, replacements of the earliest time and drops, mixed as an instance mixes them,
    /// against a sorted list: the heap holds the same times and its root is the earliest,
    /// at every size from empty to a few dozen.
    #[test]
    fn holds_what_a_sorted_list_holds() {
        let mut rng = Mulberry32::new(8);
        let mut heap = TimeHeap::default();
        let mut sorted: Vec<f64> = Vec::new();
        let mut now = 0.0;
        for _ in 0..20_000 {
            let r = rng.uniform();
            if r < 0.45 || sorted.is_empty() {
                let t = now + rng.exponential(1.0);
                heap.push(t);
                sorted.push(t);
            } else if r < 0.7 {
                let t = now + rng.exponential(1.0);
                heap.replace_min(t);
                sorted.remove(0);
                sorted.push(t);
            } else {
                now += rng.exponential(0.3);
                let gone = sorted.iter().filter(|&&t| t <= now).count();
                assert_eq!(heap.drop_until(now), gone);
                sorted.retain(|&t| t > now);
            }
            sorted.sort_by(f64::total_cmp);
            assert_eq!(heap.len(), sorted.len());
            assert_eq!(heap.min(), sorted.first().copied());
            let mut held: Vec<f64> = heap.iter().collect();
            held.sort_by(f64::total_cmp);
            assert_eq!(held, sorted);
        }
    }
}
