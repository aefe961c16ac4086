from django.db import models
