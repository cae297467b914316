/*
 * Prints the sizes and field offsets of linux/io_uring.h's structs, one "name value" a line,
 * for IoUringStructsTest to compare with the Java layouts. Fields whose name changed between
 * header versions (io_uring_buf_reg.pad/flags, the offsets' resv2/user_addr,
 * io_uring_getevents_arg.pad/min_wait_usec) are left out; their structs' sizes still count.
 */
#include <stddef.h>
#include <stdio.h>
#include <linux/io_uring.h>

#define SIZE(s) printf("%s %zu\n", #s, sizeof(struct s))
#define OFF(s, f) printf("%s.%s %zu\n", #s, #f, offsetof(struct s, f))
/* A union member under the name the Java layout gives the union. */
#define OFF_AS(s, name, f) printf("%s.%s %zu\n", #s, #name, offsetof(struct s, f))

int main(void) {
    SIZE(io_sqring_offsets);
    OFF(io_sqring_offsets, head); OFF(io_sqring_offsets, tail); OFF(io_sqring_offsets, ring_mask);
    OFF(io_sqring_offsets, ring_entries); OFF(io_sqring_offsets, flags); OFF(io_sqring_offsets, dropped);
    OFF(io_sqring_offsets, array); OFF(io_sqring_offsets, resv1);

    SIZE(io_cqring_offsets);
    OFF(io_cqring_offsets, head); OFF(io_cqring_offsets, tail); OFF(io_cqring_offsets, ring_mask);
    OFF(io_cqring_offsets, ring_entries); OFF(io_cqring_offsets, overflow); OFF(io_cqring_offsets, cqes);
    OFF(io_cqring_offsets, flags); OFF(io_cqring_offsets, resv1);

    SIZE(io_uring_params);
    OFF(io_uring_params, sq_entries); OFF(io_uring_params, cq_entries); OFF(io_uring_params, flags);
    OFF(io_uring_params, sq_thread_cpu); OFF(io_uring_params, sq_thread_idle); OFF(io_uring_params, features);
    OFF(io_uring_params, wq_fd); OFF(io_uring_params, resv); OFF(io_uring_params, sq_off); OFF(io_uring_params, cq_off);

    SIZE(io_uring_sqe);
    OFF(io_uring_sqe, opcode); OFF(io_uring_sqe, flags); OFF(io_uring_sqe, ioprio); OFF(io_uring_sqe, fd);
    OFF(io_uring_sqe, off); OFF(io_uring_sqe, addr); OFF(io_uring_sqe, len);
    OFF_AS(io_uring_sqe, op_flags, rw_flags);
    OFF(io_uring_sqe, user_data); OFF(io_uring_sqe, buf_index); OFF(io_uring_sqe, personality);
    OFF(io_uring_sqe, splice_fd_in); OFF(io_uring_sqe, addr3);
    OFF_AS(io_uring_sqe, pad2, __pad2);

    SIZE(io_uring_cqe);
    OFF(io_uring_cqe, user_data); OFF(io_uring_cqe, res); OFF(io_uring_cqe, flags);

    SIZE(io_uring_probe_op);
    OFF(io_uring_probe_op, op); OFF(io_uring_probe_op, resv); OFF(io_uring_probe_op, flags); OFF(io_uring_probe_op, resv2);

    SIZE(io_uring_probe);
    OFF(io_uring_probe, last_op); OFF(io_uring_probe, ops_len); OFF(io_uring_probe, resv); OFF(io_uring_probe, resv2);

    SIZE(io_uring_buf);
    OFF(io_uring_buf, addr); OFF(io_uring_buf, len); OFF(io_uring_buf, bid); OFF(io_uring_buf, resv);

    SIZE(io_uring_buf_ring);
    OFF(io_uring_buf_ring, resv1); OFF(io_uring_buf_ring, resv2); OFF(io_uring_buf_ring, resv3); OFF(io_uring_buf_ring, tail);

    SIZE(io_uring_buf_reg);
    OFF(io_uring_buf_reg, ring_addr); OFF(io_uring_buf_reg, ring_entries); OFF(io_uring_buf_reg, bgid); OFF(io_uring_buf_reg, resv);

    SIZE(io_uring_getevents_arg);
    OFF(io_uring_getevents_arg, sigmask); OFF(io_uring_getevents_arg, sigmask_sz); OFF(io_uring_getevents_arg, ts);

    printf("__kernel_timespec %zu\n", sizeof(struct __kernel_timespec));
    printf("__kernel_timespec.tv_sec %zu\n", offsetof(struct __kernel_timespec, tv_sec));
    printf("__kernel_timespec.tv_nsec %zu\n", offsetof(struct __kernel_timespec, tv_nsec));
    return 0;
}
