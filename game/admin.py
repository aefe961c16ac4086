from django.contrib import admin
