//! A binary min-heap of times in a `Vec<f64>` that is allocated once and reused: the free
//! times of an instance's busy workers, and the leave times of the requests it holds.

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

    /// Puts `time` at the root and moves it down to its place.
    fn sift_down_from_root(&mut self, time: f64) {
        let n = self.items.len();
        let mut i = 0;
        loop {
            let left = 2 * i + 1;
            if left >= n {
                break;
            }
            let right = left + 1;
            let child = if right < n && self.items[right] < self.items[left] {
                right
            } else {
                left
            };
            if self.items[child] >= time {
                break;
            }
            self.items[i] = self.items[child];
            i = child;
        }
        self.items[i] = time;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Mulberry32;

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
}
