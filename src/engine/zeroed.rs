//! Large zeroed buffers for the hash tables: 2 MB-aligned, with transparent huge pages requested on Linux.
//!
//! A table of hundreds of megabytes probed at random misses the TLB on nearly every probe with 4 KB pages; and a
//! fresh mapping is zeroed by the kernel page by page as it is touched, instead of the whole table being written
//! before the first search (a 2 GB tsume table took seconds to fill, and a search that uses little of it should
//! not pay for all of it).

/// Types for which all-zero bytes are a valid value.
///
/// # Safety
/// Implement only for types made of integers (or atomics of them) with no invalid bit patterns.
pub unsafe trait ZeroValid {}

// SAFETY: an integer.
unsafe impl ZeroValid for u64 {}

pub struct ZeroedBuffer<T: ZeroValid> {
    ptr: std::ptr::NonNull<T>,
    len: usize,
    region: Region,
}

// SAFETY: the buffer owns its memory exclusively; sending it is as safe as sending a `[T]`.
unsafe impl<T: ZeroValid + Send> Send for ZeroedBuffer<T> {}
// SAFETY: as above, sharing it is as safe as sharing a `[T]`.
unsafe impl<T: ZeroValid + Sync> Sync for ZeroedBuffer<T> {}

const HUGE_PAGE: usize = 2 * 1024 * 1024;

/// Where the memory came from, to give it back the same way.
enum Region {
    /// An anonymous mapping (Linux): zero pages on first touch, so a large table costs nothing until used.
    /// (`alloc_zeroed` with an alignment above malloc's writes every byte itself.)
    #[cfg(target_os = "linux")]
    Mapped {
        base: *mut libc::c_void,
        bytes: usize,
    },
    Heap(std::alloc::Layout),
}

impl<T: ZeroValid> ZeroedBuffer<T> {
    /// `len` zeroed values (at least one), in huge pages where the system grants them when `huge`.
    pub fn new(len: usize, huge: bool) -> Self {
        let len = len.max(1);
        let bytes = len * std::mem::size_of::<T>().max(1);
        #[cfg(target_os = "linux")]
        if bytes >= HUGE_PAGE {
            if let Some(b) = Self::mapped(len, bytes, huge) {
                return b;
            }
        }
        let layout = std::alloc::Layout::from_size_align(bytes, 64.max(std::mem::align_of::<T>()))
            .unwrap_or_else(|e| panic!("hash table layout: {e}"));
        // SAFETY: the layout has a non-zero size; all-zero bytes are a valid `T` (`ZeroValid`).
        let raw = unsafe { std::alloc::alloc_zeroed(layout) } as *mut T;
        let Some(ptr) = std::ptr::NonNull::new(raw) else {
            std::alloc::handle_alloc_error(layout)
        };
        ZeroedBuffer {
            ptr,
            len,
            region: Region::Heap(layout),
        }
    }

    /// A mapping with a 2 MB-aligned start, huge pages requested when `huge`; `None` when the kernel refuses it.
    #[cfg(target_os = "linux")]
    fn mapped(len: usize, bytes: usize, huge: bool) -> Option<Self> {
        let total = bytes.checked_add(HUGE_PAGE)?;
        // SAFETY: a fresh private anonymous mapping; nothing else refers to it.
        let base = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                total,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        if base == libc::MAP_FAILED {
            return None;
        }
        let start = (base as usize).next_multiple_of(HUGE_PAGE);
        // SAFETY: advice on memory this mapping owns; failure only means ordinary pages.
        unsafe {
            if huge {
                libc::madvise(start as *mut libc::c_void, bytes, libc::MADV_HUGEPAGE);
            }
        }
        Some(ZeroedBuffer {
            ptr: std::ptr::NonNull::new(start as *mut T)?,
            len,
            region: Region::Mapped { base, bytes: total },
        })
    }
}

impl<T: ZeroValid> Drop for ZeroedBuffer<T> {
    fn drop(&mut self) {
        match self.region {
            #[cfg(target_os = "linux")]
            // SAFETY: the mapping made in `mapped`, unmapped once.
            Region::Mapped { base, bytes } => unsafe {
                libc::munmap(base, bytes);
            },
            // SAFETY: allocated in `new` with this layout; `T` needs no drop (plain integers).
            Region::Heap(layout) => unsafe {
                std::alloc::dealloc(self.ptr.as_ptr() as *mut u8, layout)
            },
        }
    }
}

impl<T: ZeroValid> std::ops::Deref for ZeroedBuffer<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        // SAFETY: `ptr` points to `len` initialised (zeroed or since written) values owned by this buffer.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl<T: ZeroValid> std::ops::DerefMut for ZeroedBuffer<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        // SAFETY: as in `deref`, and `&mut self` makes the access exclusive.
        unsafe { std::slice::from_raw_parts_mut(self.ptr.as_ptr(), self.len) }
    }
}

/// Starts loading the cache line at `p` so that a probe soon after does not wait on memory.
#[inline(always)]
pub fn prefetch<T>(p: *const T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch is only a hint; it never faults, whatever the address.
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(p as *const i8)
    };
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
}
