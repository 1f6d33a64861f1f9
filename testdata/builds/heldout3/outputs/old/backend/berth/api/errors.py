# Generated from backend/berth/api/errors.csv. Do not edit.

class Category:
    QUOTA = 'quota'
    AUTH = 'auth'
    MAINTENANCE = 'maintenance'
    CONFLICT = 'conflict'
    NOTFOUND = 'notfound'
    INTERNAL = 'internal'
    UPSTREAM = 'upstream'
    VALIDATION = 'validation'
    BILLING = 'billing'
    PERMISSION = 'permission'


CODES = {
    1001: (Category.VALIDATION, 'missing field'),
    1002: (Category.VALIDATION, 'bad date range'),
    1003: (Category.VALIDATION, 'unknown harbour'),
    2001: (Category.AUTH, 'token expired'),
    2002: (Category.AUTH, 'token revoked'),
    2003: (Category.PERMISSION, 'not an operator'),
    3001: (Category.CONFLICT, 'berth already booked'),
    3002: (Category.CONFLICT, 'vessel too long'),
    4001: (Category.NOTFOUND, 'no such berth'),
    4002: (Category.NOTFOUND, 'no such booking'),
    5001: (Category.UPSTREAM, 'port authority timeout'),
    5002: (Category.UPSTREAM, 'tide service down'),
    6001: (Category.QUOTA, 'too many bookings'),
    7001: (Category.BILLING, 'card declined'),
    8001: (Category.MAINTENANCE, 'read only mode'),
    9001: (Category.INTERNAL, 'unexpected error'),
}
