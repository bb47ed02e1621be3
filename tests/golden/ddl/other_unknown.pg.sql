/* MIGRATOR_UNCONVERTED(unrecognised statement): CREATE DATABASE LINK hq_link CONNECT TO scott IDENTIFIED BY tiger USING 'hq' */ MIGRATOR_UNCONVERTED;
-- unconverted: unrecognised statement: no rule converts this kind of statement
